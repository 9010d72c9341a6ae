// cfd_step_factor, OpenMP variant: the elements shared by the team the generated OPENMP
// wrapper sets up; same formula as the sequential variant.
#include "../cfd_element.h"
#include "../cfd_step_factor.h"

void cfd_step_factor_openmp(const peppher::Vector<float>& variables,
                            const peppher::Vector<float>& areas,
                            peppher::Vector<float>& step_factors) {
  const int n = static_cast<int>(step_factors.size());
  const float *u = variables.data(), *area = areas.data();
  float* out = step_factors.data();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) out[i] = cfd::step_factor(u + i * cfd::kVars, area[i]);
}
