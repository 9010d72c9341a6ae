// cfd_flux, OpenMP variant: the elements shared by the team the generated OPENMP wrapper sets
// up; same per-element flux as the sequential variant.
#include "../cfd_element.h"
#include "../cfd_flux.h"

void cfd_flux_openmp(const peppher::Vector<int>& neighbours, const peppher::Vector<float>& normals,
                     const peppher::Vector<float>& variables,
                     const peppher::Vector<float>& ff_variables, peppher::Vector<float>& fluxes) {
  const int n = static_cast<int>(fluxes.size()) / cfd::kVars;
  const int* nb = neighbours.data();
  const float *normal = normals.data(), *u = variables.data(), *ff = ff_variables.data();
  float* out = fluxes.data();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) cfd::flux(nb, normal, u, ff, i, out + i * cfd::kVars);
}
