// Time-vs-size curves of trained interfaces: the training table (peppher_perf.<platform>.xml,
// written by compose --train) read by common/ and turned into perfdata::Curve.
#pragma once

#include <string>
#include <vector>

#include "common/model.h"

namespace peppher::report {

/// One curve per interface of the training table @p path, along its first context
/// parameter (other parameters at the middle of their trained values). Throws ReportError
/// with the reader's "file:line:col: error: ..." messages when the table is malformed.
std::vector<perfdata::Curve> read_table_curves(const std::string& path);

}  // namespace peppher::report
