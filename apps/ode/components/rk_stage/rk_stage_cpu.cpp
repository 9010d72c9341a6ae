// rk_stage, sequential CPU variant (skeleton from compose -generateCompFiles, filled in): the
// point where RK4 evaluates its next stage, y_stage = y + c k.
#include "../ode_components.h"
#include "../ode_point.h"

void rk_stage_cpu(const peppher::Vector<double>& y, const peppher::Vector<double>& k,
                  peppher::Vector<double>& y_stage, double c) {
  const std::size_t n = y_stage.size();
  const double *py = y.data(), *pk = k.data();
  double* out = y_stage.data();
  for (std::size_t i = 0; i < n; ++i) out[i] = ode::stage(py[i], pk[i], c);
}
