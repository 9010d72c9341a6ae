// cfd_step_factor, CUDA variant: one thread per element, cfd::step_factor of cfd_element.h
// (compiled with -fmad=false: no fma). Compiled, not run (no GPU here).
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>

#include "../cfd_element.h"
#include "../cfd_step_factor.h"

namespace {

__global__ void kernel(const float* variables, const float* areas, float* step_factors, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) step_factors[i] = cfd::step_factor(variables + i * cfd::kVars, areas[i]);
}

}  // namespace

void cfd_step_factor_cuda(const peppher::Vector<float>& variables,
                          const peppher::Vector<float>& areas,
                          peppher::Vector<float>& step_factors) {
  const int n = static_cast<int>(step_factors.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(variables.data(), areas.data(),
                                                               step_factors.data(), n);
  peppher::cuda::finish("cfd_step_factor_cuda");
}
