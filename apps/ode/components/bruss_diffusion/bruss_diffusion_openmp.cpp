// bruss_diffusion, OpenMP variant: the points shared by the team the generated OPENMP wrapper
// sets up; same formula as the sequential variant.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_diffusion_openmp(const peppher::Vector<double>& u, peppher::Vector<double>& du,
                            double alpha, double boundary) {
  const long n = static_cast<long>(du.size());
  const double* in = u.data();
  double* out = du.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    out[i] = ode::diffusion(in, static_cast<std::size_t>(n), static_cast<std::size_t>(i), alpha,
                            boundary);
}
