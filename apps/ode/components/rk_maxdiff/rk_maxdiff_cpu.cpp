// rk_maxdiff, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// change = max(change, max_i |y_next[i] - y[i]|), the largest change of a step (a max is exact
// in any order, so every variant gives the same bits).
#include <cmath>

#include "../ode_components.h"

void rk_maxdiff_cpu(const peppher::Vector<double>& y_next, const peppher::Vector<double>& y,
                    peppher::Scalar<double>& change) {
  const std::size_t n = y.size();
  const double *a = y_next.data(), *b = y.data();
  double m = change.get();
  for (std::size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(a[i] - b[i]));
  change.set(m);
}
