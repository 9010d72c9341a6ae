// cfd_time_step, OpenMP variant: the variables shared by the team the generated OPENMP wrapper
// sets up; same formula as the sequential variant.
#include "../cfd_element.h"
#include "../cfd_time_step.h"

void cfd_time_step_openmp(const peppher::Vector<float>& old_variables,
                          const peppher::Vector<float>& step_factors,
                          const peppher::Vector<float>& fluxes, peppher::Vector<float>& variables,
                          int stage) {
  const int n = static_cast<int>(variables.size());
  const float *old = old_variables.data(), *factor = step_factors.data(), *f = fluxes.data();
  float* out = variables.data();
#pragma omp parallel for schedule(static)
  for (int k = 0; k < n; ++k) out[k] = cfd::time_step(old[k], factor[k / cfd::kVars], f[k], stage);
}
