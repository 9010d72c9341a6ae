// bruss_diffusion, CUDA variant: one thread per point; the Vector views' data() are device
// pointers inside the variant. Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../ode_components.h"

namespace {

__global__ void kernel(const double* u, double* du, int n, double alpha, double boundary) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double left = i > 0 ? u[i - 1] : boundary;
  const double right = i + 1 < n ? u[i + 1] : boundary;
  du[i] = __dmul_rn(alpha, __dadd_rn(__dsub_rn(left, __dmul_rn(2.0, u[i])), right));
}

}  // namespace

void bruss_diffusion_cuda(const peppher::Vector<double>& u, peppher::Vector<double>& du,
                          double alpha, double boundary) {
  const int n = static_cast<int>(du.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(u.data(), du.data(), n, alpha,
                                                               boundary);
  peppher::cuda::finish("bruss_diffusion_cuda");
}
