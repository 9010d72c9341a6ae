// compose --explain: for each interface, which variants the composition keeps, which it
// leaves out and why, and (after training) which variant the table expects to win where.
// Reads the plan (and through it the expanded IR); writes text only.
#pragma once

#include <ostream>

#include "compose/plan/plan.h"

namespace peppher::explain {

/// Prints the explanation of `plan` (the plan stage's output) to `out`.
void explain(const plan::ApplicationPlan& plan, std::ostream& out);

}  // namespace peppher::explain
