// A training table's interfaces as time-vs-size curves (report::Curve), for the figures of
// compose --explain --format=html and peppher-report --table.
#pragma once

#include <vector>

#include "compose/ir/ir.h"
#include "report/model.h"

namespace peppher::explain {

/// One curve per interface of @p table, along its first context parameter (the others at
/// the middle of their trained values, named in the curve's axis).
std::vector<report::Curve> curves_of(const ir::PerformanceTable& table);

/// The curve of interface @p t of @p table.
report::Curve curve_of(const ir::TrainedInterface& t, const std::string& source);

}  // namespace peppher::explain
