// What placement.cpp needs of the learning choice (calibrating_choice.cpp).
#pragma once

#include "peppher/detail/backends.h"

namespace peppher::detail {

/// @brief Forgets what CalibratingChoice saw of each call in an earlier session
///        (apply_placement_environment(), from init()).
void forget_call_history();

/// @brief Where a variant of @p backend may run, one worker per performance-model
///        architecture and memory node, into @p ids (STARPU_NMAXWORKERS): the largest
///        combined worker for an OpenMP variant when the run has one, else the workers of
///        its kind, CPU workers one per memory node. Returns how many.
int candidate_workers(const Backend& backend, int* ids);

}  // namespace peppher::detail
