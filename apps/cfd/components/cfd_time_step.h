// The cfd_time_step component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: Runge-Kutta stage `stage` (0..2) of the solver,
// variables = old_variables + step_factor / (3 + 1 - stage) * fluxes.
#pragma once
#include <peppher/runtime.h>

void cfd_time_step(const peppher::Vector<float>& old_variables,
                   const peppher::Vector<float>& step_factors, const peppher::Vector<float>& fluxes,
                   peppher::Vector<float>& variables, int stage);
