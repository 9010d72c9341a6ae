// cfd_flux, sequential CPU variant (skeleton from compose -generateCompFiles, filled in): each
// element's flux through its four faces (cfd::flux of cfd_element.h).
#include "../cfd_element.h"
#include "../cfd_flux.h"

void cfd_flux_cpu(const peppher::Vector<int>& neighbours, const peppher::Vector<float>& normals,
                  const peppher::Vector<float>& variables,
                  const peppher::Vector<float>& ff_variables, peppher::Vector<float>& fluxes) {
  const int n = static_cast<int>(fluxes.size()) / cfd::kVars;
  float* out = fluxes.data();
  for (int i = 0; i < n; ++i)
    cfd::flux(neighbours.data(), normals.data(), variables.data(), ff_variables.data(), i,
              out + i * cfd::kVars);
}
