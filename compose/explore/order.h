// Bottom-up ordering of interfaces by the required-interfaces relation lifted to
// interfaces (an interface requires what any of its variants requires); cycles are errors.
#pragma once

#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::explore {

// Depth-first from the main descriptor's required interfaces (in order), then any
// interface not reached from main (in discovery order); each interface comes after every
// interface it requires. A cycle is reported once, with the path and where each edge is.
std::vector<ir::Interface> order_bottom_up(const std::vector<ir::RequiredInterface>& roots,
                                           std::vector<ir::Interface> interfaces,
                                           diag::Diagnostics& diag);

}  // namespace peppher::explore
