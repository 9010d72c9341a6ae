// bruss_diffusion, sequential CPU variant: du = alpha * (discrete Laplacian of u) on one block
// of a partitioned call (points first .. first + du.size() - 1 of n); the neighbours across the
// block's ends come from u's halo, and the fixed boundary value stands outside 0 .. n-1.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_diffusion_cpu(const peppher::Vector<double>& u, peppher::Vector<double>& du,
                         double alpha, double boundary, int first, int n) {
  const auto size = static_cast<std::ptrdiff_t>(du.size());
  const double* in = u.data();
  double* out = du.data();
  for (std::ptrdiff_t i = 0; i < size; ++i) {
    const long point = first + i;  // in the whole vector
    const double left = point > 0 ? u.with_halo(i - 1) : boundary;
    const double right = point + 1 < n ? u.with_halo(i + 1) : boundary;
    out[i] = ode::diffusion3(left, in[i], right, alpha);
  }
}
