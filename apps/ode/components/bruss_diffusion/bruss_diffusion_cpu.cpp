// bruss_diffusion, sequential CPU variant (skeleton from compose -generateCompFiles, filled
// in): du = alpha * (discrete Laplacian of u) with a fixed boundary value.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_diffusion_cpu(const peppher::Vector<double>& u, peppher::Vector<double>& du,
                         double alpha, double boundary) {
  const std::size_t n = du.size();
  const double* in = u.data();
  double* out = du.data();
  for (std::size_t i = 0; i < n; ++i) out[i] = ode::diffusion(in, n, i, alpha, boundary);
}
