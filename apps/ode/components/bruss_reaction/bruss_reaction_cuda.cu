// bruss_reaction, CUDA variant: one thread per point, explicit round-to-nearest operations in
// the order of ode_point.h (no fma). Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../ode_components.h"

namespace {

__global__ void kernel(const double* u, const double* v, double* du, double* dv, int n, double a,
                       double b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double uuv = __dmul_rn(__dmul_rn(u[i], u[i]), v[i]);
  du[i] = __dadd_rn(du[i], __dsub_rn(__dadd_rn(a, uuv), __dmul_rn(b + 1.0, u[i])));
  dv[i] = __dadd_rn(dv[i], __dsub_rn(__dmul_rn(b, u[i]), uuv));
}

}  // namespace

void bruss_reaction_cuda(const peppher::Vector<double>& u, const peppher::Vector<double>& v,
                         peppher::Vector<double>& du, peppher::Vector<double>& dv, double a,
                         double b) {
  const int n = static_cast<int>(du.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(u.data(), v.data(), du.data(),
                                                               dv.data(), n, a, b);
  peppher::cuda::finish("bruss_reaction_cuda");
}
