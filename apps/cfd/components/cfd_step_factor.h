// The cfd_step_factor component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: each element's local time step from its state (5 floats
// per element in variables) and its area.
#pragma once
#include <peppher/runtime.h>

void cfd_step_factor(const peppher::Vector<float>& variables, const peppher::Vector<float>& areas,
                     peppher::Vector<float>& step_factors);
