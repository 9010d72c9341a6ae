// Writing a report folder: the figures (gnuplot) and the HTML page that shows them. Used by
// peppher-report and by compose --explain --format=html.
#pragma once

#include <string>

#include "common/page.h"

namespace peppher::report {

/// Creates @p dir when missing, draws the figures of @p in (Gantt chart when it has a trace,
/// one per curve) and writes the page as @p dir / @p page. Returns the page's path.
/// Throws ReportError when the folder, a figure or the page cannot be written.
std::string write_report(perfdata::PageInput in, const std::string& dir,
                         const std::string& page = "index.html");

}  // namespace peppher::report
