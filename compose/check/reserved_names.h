// A check/ rule: interface parameters may not take a name the generated code declares next
// to them (names/names.h): the reserved `peppher_` prefix and PeppherArgs, or an extent
// derived from another parameter's name (`x_size` beside a peppher::Vector `x`).
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

/// Reports each parameter of `iface` (kinds resolved) whose name the generated code
/// reserves, at the parameter.
void check_reserved_names(const ir::Interface& iface, diag::Diagnostics& diag);

}  // namespace peppher::check
