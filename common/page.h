// The report in two forms: one self-contained HTML page (inline style, figures as files next
// to it) and plain text for terminals and CI logs. Both print a Summary and curves computed
// beforehand.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/model.h"
#include "common/summary.h"

namespace peppher::perfdata {

/// Everything one page shows; each part is optional.
struct PageInput {
  std::string title;
  const Trace* trace = nullptr;  // with summary and gantt figure
  Summary summary;
  std::string gantt_png;
  std::vector<Curve> curves;
  std::vector<std::string> curve_pngs;        // one per curve: file names next to the page
  std::vector<std::string> curve_svgs;        // or, one per curve, inline SVG text
  std::vector<ExplainedInterface> explained;  // compose --explain --format=html
  std::vector<std::string> palette;
};

/// The HTML page.
std::string render_html(const PageInput& in);

/// The text report.
void render_text(const PageInput& in, std::ostream& out);

}  // namespace peppher::perfdata
