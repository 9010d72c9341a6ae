// cfd_step_factor, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// each element's local time step, 0.5 / (sqrt(area) (|v| + speed of sound)).
#include "../cfd_element.h"
#include "../cfd_step_factor.h"

void cfd_step_factor_cpu(const peppher::Vector<float>& variables,
                         const peppher::Vector<float>& areas,
                         peppher::Vector<float>& step_factors) {
  const int n = static_cast<int>(step_factors.size());
  const float *u = variables.data(), *area = areas.data();
  float* out = step_factors.data();
  for (int i = 0; i < n; ++i) out[i] = cfd::step_factor(u + i * cfd::kVars, area[i]);
}
