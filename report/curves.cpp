// Training tables as curves (see curves.h): compose's reader, then its conversion.
#include "report/curves.h"

#include <sstream>

#include "compose/diag/diagnostics.h"
#include "compose/explain/curves.h"
#include "compose/read/table.h"
#include "report/trace_reader.h"

namespace peppher::report {

std::vector<Curve> read_table_curves(const std::string& path) {
  std::ostringstream messages;
  diag::Diagnostics diag(messages);
  std::optional<ir::PerformanceTable> table = read::read_performance_table(path, diag);
  if (!table || diag.has_errors()) {
    std::string text = messages.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    throw ReportError(text.empty() ? path + ": error: cannot read the training table" : text);
  }
  return explain::curves_of(*table);
}

}  // namespace peppher::report
