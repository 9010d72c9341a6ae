// The cfd_flux component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: each element's flux (5 floats) through its 4 faces, from
// its neighbours (-1: wall, -2: far field), the face normals and the far-field state.
#pragma once
#include <peppher/runtime.h>

void cfd_flux(const peppher::Vector<int>& neighbours, const peppher::Vector<float>& normals,
              const peppher::Vector<float>& variables, const peppher::Vector<float>& ff_variables,
              peppher::Vector<float>& fluxes);
