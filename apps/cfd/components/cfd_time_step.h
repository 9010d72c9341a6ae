// The cfd_time_step component (light form, docs/FORMAT.md): this declaration is its interface,
// cfd_time_step/ holds its variants. Runge-Kutta stage `stage` (0..2) of the solver, variables =
// old_variables + step_factor / (3 + 1 - stage) * fluxes.
#pragma once
#include <peppher/runtime.h>

void cfd_time_step(const peppher::Vector<float>& old_variables,
                   const peppher::Vector<float>& step_factors, const peppher::Vector<float>& fluxes,
                   peppher::Vector<float>& variables PEPPHER_WRITE, int stage);
