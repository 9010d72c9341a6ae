// A training table's interfaces as time-vs-size curves, for the figures of
// compose --explain --format=html and peppher-report --table.
#pragma once

#include <string>
#include <vector>

#include "common/model.h"
#include "common/training_table.h"

namespace peppher::perfdata {

/// One curve per interface of @p table, along its first context parameter (the others at
/// the middle of their trained values, named in the curve's axis).
std::vector<Curve> curves_of(const TrainingTable& table);

/// The curve of interface @p t of the table in file @p source.
Curve curve_of(const TrainedInterface& t, const std::string& source);

}  // namespace peppher::perfdata
