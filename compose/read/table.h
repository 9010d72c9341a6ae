// Reads a training run's performance table (peppher_perf.<platform>.xml, written by the
// runtime's Trainer) into the IR, reporting malformed content with its position.
#pragma once

#include <optional>
#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::read {

/// The table in `path`; nullopt (with an error reported) when it cannot be read or is
/// malformed. A point missing from the grid is an error: static dispatch needs all.
std::optional<ir::PerformanceTable> read_performance_table(const std::string& path,
                                                           diag::Diagnostics& diag);

}  // namespace peppher::read
