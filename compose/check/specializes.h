// Checks of `specializes` (Merge's "most specific variant first", see specializes.cpp): the
// named variant exists in the same interface, no cycles, and the specialising variant's
// constraints imply the other's where the expressions let compose tell.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

void check_specializations(const ir::Application& app, const ir::Options& options,
                           diag::Diagnostics& diag);

}  // namespace peppher::check
