// bruss_diffusion, OpenMP variant: the block's points shared by the team the generated OPENMP
// wrapper sets up; same neighbours (halo, boundary) and formula as the sequential variant.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_diffusion_openmp(const peppher::Vector<double>& u, peppher::Vector<double>& du,
                            double alpha, double boundary, int first, int n) {
  const long size = static_cast<long>(du.size());
  const double* in = u.data();
  double* out = du.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < size; ++i) {
    const long point = first + i;  // in the whole vector
    const double left = point > 0 ? u.with_halo(i - 1) : boundary;
    const double right = point + 1 < n ? u.with_halo(i + 1) : boundary;
    out[i] = ode::diffusion3(left, in[i], right, alpha);
  }
}
