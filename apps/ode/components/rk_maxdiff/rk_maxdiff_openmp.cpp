// rk_maxdiff, OpenMP variant: change = max(change, max_i |y_next[i] - y[i]|) with an OpenMP max
// reduction over the team.
#include <cmath>

#include "../ode_components.h"

void rk_maxdiff_openmp(const peppher::Vector<double>& y_next, const peppher::Vector<double>& y,
                       peppher::Scalar<double>& change) {
  const long n = static_cast<long>(y.size());
  const double *a = y_next.data(), *b = y.data();
  double m = change.get();
#pragma omp parallel for schedule(static) reduction(max : m)
  for (long i = 0; i < n; ++i) m = std::fmax(m, std::fabs(a[i] - b[i]));
  change.set(m);
}
