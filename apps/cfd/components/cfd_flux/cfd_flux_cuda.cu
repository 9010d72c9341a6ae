// cfd_flux, CUDA variant: one thread per element, cfd::flux of cfd_element.h (compiled with
// -fmad=false: no fma). Compiled, not run (no GPU here).
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>

#include "../cfd_element.h"
#include "../cfd_flux.h"

namespace {

__global__ void kernel(const int* neighbours, const float* normals, const float* variables,
                       const float* ff_variables, float* fluxes, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cfd::flux(neighbours, normals, variables, ff_variables, i, fluxes + i * cfd::kVars);
}

}  // namespace

void cfd_flux_cuda(const peppher::Vector<int>& neighbours, const peppher::Vector<float>& normals,
                   const peppher::Vector<float>& variables,
                   const peppher::Vector<float>& ff_variables, peppher::Vector<float>& fluxes) {
  const int n = static_cast<int>(fluxes.size()) / cfd::kVars;
  if (n == 0) return;
  kernel<<<(n + 127) / 128, 128, 0, peppher::cuda::stream()>>>(
      neighbours.data(), normals.data(), variables.data(), ff_variables.data(), fluxes.data(), n);
  peppher::cuda::finish("cfd_flux_cuda");
}
