// Exhaustiveness of constraints over parameter ranges (Merge's check, see exhaustive.cpp):
// warns, at the interface, about ranges of calls that no enabled variant accepts.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

void check_exhaustive(const ir::Application& app, const ir::Options& options,
                      diag::Diagnostics& diag);

}  // namespace peppher::check
