// The cfd_flux component (light form, docs/FORMAT.md): this declaration is its interface, cfd_flux/
// holds its variants. Each element's flux (5 floats) through its 4 faces, from its neighbours (-1:
// wall, -2: far field), the face normals and the far-field state.
#pragma once
#include <peppher/runtime.h>

void cfd_flux(const peppher::Vector<int>& neighbours, const peppher::Vector<float>& normals,
              const peppher::Vector<float>& variables, const peppher::Vector<float>& ff_variables,
              peppher::Vector<float>& fluxes PEPPHER_WRITE);
