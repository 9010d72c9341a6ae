// rk_stage, CUDA variant: y_stage = y + c k, one thread per point (no fma). Compiled, not run.
#include <peppher/cuda.h>

#include "../ode_components.h"

namespace {

__global__ void kernel(const double* y, const double* k, double* y_stage, int n, double c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y_stage[i] = __dadd_rn(y[i], __dmul_rn(c, k[i]));
}

}  // namespace

void rk_stage_cuda(const peppher::Vector<double>& y, const peppher::Vector<double>& k,
                   peppher::Vector<double>& y_stage, double c) {
  const int n = static_cast<int>(y_stage.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(y.data(), k.data(), y_stage.data(),
                                                               n, c);
  peppher::cuda::finish("rk_stage_cuda");
}
