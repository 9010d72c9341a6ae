// rk_update, CUDA variant: y_next = y + h/6 (k1 + 2 k2 + 2 k3 + k4), one thread per point,
// explicit round-to-nearest operations in the order of ode_point.h. Compiled, not run.
#include <peppher/cuda.h>

#include "../ode_components.h"

namespace {

__global__ void kernel(const double* y, const double* k1, const double* k2, const double* k3,
                       const double* k4, double* y_next, int n, double h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double sum =
      __dadd_rn(__dadd_rn(__dadd_rn(k1[i], __dmul_rn(2.0, k2[i])), __dmul_rn(2.0, k3[i])), k4[i]);
  y_next[i] = __dadd_rn(y[i], __dmul_rn(__ddiv_rn(h, 6.0), sum));
}

}  // namespace

void rk_update_cuda(const peppher::Vector<double>& y, const peppher::Vector<double>& k1,
                    const peppher::Vector<double>& k2, const peppher::Vector<double>& k3,
                    const peppher::Vector<double>& k4, peppher::Vector<double>& y_next, double h) {
  const int n = static_cast<int>(y_next.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(
      y.data(), k1.data(), k2.data(), k3.data(), k4.data(), y_next.data(), n, h);
  peppher::cuda::finish("rk_update_cuda");
}
