// cfd_time_step, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// Runge-Kutta stage `stage`, variables = old_variables + step_factor / (4 - stage) * fluxes.
#include "../cfd_element.h"
#include "../cfd_time_step.h"

void cfd_time_step_cpu(const peppher::Vector<float>& old_variables,
                       const peppher::Vector<float>& step_factors,
                       const peppher::Vector<float>& fluxes, peppher::Vector<float>& variables,
                       int stage) {
  const int n = static_cast<int>(variables.size());
  const float *old = old_variables.data(), *factor = step_factors.data(), *f = fluxes.data();
  float* out = variables.data();
  for (int k = 0; k < n; ++k) out[k] = cfd::time_step(old[k], factor[k / cfd::kVars], f[k], stage);
}
