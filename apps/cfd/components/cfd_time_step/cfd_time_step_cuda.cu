// cfd_time_step, CUDA variant: one thread per variable, cfd::time_step of cfd_element.h
// (compiled with -fmad=false: no fma). Compiled, not run (no GPU here).
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>

#include "../cfd_element.h"
#include "../cfd_time_step.h"

namespace {

__global__ void kernel(const float* old_variables, const float* step_factors, const float* fluxes,
                       float* variables, int n, int stage) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    variables[k] = cfd::time_step(old_variables[k], step_factors[k / cfd::kVars], fluxes[k], stage);
}

}  // namespace

void cfd_time_step_cuda(const peppher::Vector<float>& old_variables,
                        const peppher::Vector<float>& step_factors,
                        const peppher::Vector<float>& fluxes, peppher::Vector<float>& variables,
                        int stage) {
  const int n = static_cast<int>(variables.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(
      old_variables.data(), step_factors.data(), fluxes.data(), variables.data(), n, stage);
  peppher::cuda::finish("cfd_time_step_cuda");
}
