// compose --explain: for each interface, which variants the composition keeps, which it
// leaves out and why, and (after training) which variant the table expects to win where.
// Reads the expanded IR; writes text only.
#pragma once

#include <ostream>

#include "compose/ir/ir.h"

namespace peppher::explain {

/// Prints the explanation of `expanded` (the expand stage's output) to `out`.
void explain(const ir::Application& expanded, std::ostream& out);

}  // namespace peppher::explain
