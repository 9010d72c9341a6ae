// rk_update, OpenMP variant: y_next = y + h/6 (k1 + 2 k2 + 2 k3 + k4), points shared by the team.
#include "../ode_components.h"
#include "../ode_point.h"

void rk_update_openmp(const peppher::Vector<double>& y, const peppher::Vector<double>& k1,
                      const peppher::Vector<double>& k2, const peppher::Vector<double>& k3,
                      const peppher::Vector<double>& k4, peppher::Vector<double>& y_next,
                      double h) {
  const long n = static_cast<long>(y_next.size());
  const double *py = y.data(), *p1 = k1.data(), *p2 = k2.data(), *p3 = k3.data();
  const double* p4 = k4.data();
  double* out = y_next.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) out[i] = ode::update(py[i], p1[i], p2[i], p3[i], p4[i], h);
}
