// Reads the runtime's Chrome trace-event JSON (PEPPHER_TRACE) event by event (nlohmann::json's
// SAX interface, never the whole file as one value); a file
// that is not JSON, is truncated, or lacks what the runtime writes is a perfdata::ReportError
// naming the file, the line and column or the event, and what is wrong.
#pragma once

#include <string>

#include "common/model.h"
#include "common/report_error.h"

namespace peppher::report {

/// The trace in file @p path. Throws perfdata::ReportError when it cannot be read or is malformed.
perfdata::Trace read_trace(const std::string& path);

/// The trace in @p text, as if read from @p path (for tests).
perfdata::Trace parse_trace(const std::string& text, const std::string& path);

}  // namespace peppher::report
