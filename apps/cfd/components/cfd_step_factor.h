// The cfd_step_factor component (light form, docs/FORMAT.md): this declaration is its interface,
// cfd_step_factor/ holds its variants. Each element's local time step from its state (5 floats per
// element in variables) and its area.
#pragma once
#include <peppher/runtime.h>

void cfd_step_factor(const peppher::Vector<float>& variables, const peppher::Vector<float>& areas,
                     peppher::Vector<float>& step_factors PEPPHER_WRITE);
