// rk_stage, OpenMP variant: y_stage = y + c k, the points shared by the team.
#include "../ode_components.h"
#include "../ode_point.h"

void rk_stage_openmp(const peppher::Vector<double>& y, const peppher::Vector<double>& k,
                     peppher::Vector<double>& y_stage, double c) {
  const long n = static_cast<long>(y_stage.size());
  const double *py = y.data(), *pk = k.data();
  double* out = y_stage.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) out[i] = ode::stage(py[i], pk[i], c);
}
