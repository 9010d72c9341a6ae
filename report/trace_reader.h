// Reads the runtime's Chrome trace-event JSON (PEPPHER_TRACE) with nlohmann::json; a file
// that is not JSON, is truncated, or lacks what the runtime writes is a ReportError naming
// the file, the line and column or the event, and what is wrong.
#pragma once

#include <stdexcept>
#include <string>

#include "report/model.h"

namespace peppher::report {

/// A user-facing error of peppher-report ("file:line:col: error: ..." or "file: error: ...").
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The trace in file @p path. Throws ReportError when it cannot be read or is malformed.
Trace read_trace(const std::string& path);

/// The trace in @p text, as if read from @p path (for tests).
Trace parse_trace(const std::string& text, const std::string& path);

}  // namespace peppher::report
