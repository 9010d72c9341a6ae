// Coalescing the Gantt figure's spans and fitting its rows (see gantt_boxes.h).
#include "common/gantt_boxes.h"

#include <algorithm>
#include <cmath>

namespace peppher::perfdata {
namespace {

constexpr int kFramePixels = 140;  // title, time axis and margins
constexpr int kRowPixels = 40;     // a row when all fit
constexpr int kLabelPixels = 12;   // a row label's line (10-point sans)

}  // namespace

std::vector<GanttBox> coalesce(std::vector<GanttBox> spans, double pixel) {
  std::sort(spans.begin(), spans.end(), [](const GanttBox& a, const GanttBox& b) {
    return a.row != b.row ? a.row < b.row : a.from < b.from;
  });
  std::vector<GanttBox> boxes;
  for (const GanttBox& s : spans) {
    if (!boxes.empty() && boxes.back().row == s.row && s.from - boxes.back().to < pixel) {
      boxes.back().to = std::max(boxes.back().to, s.to);
    } else {
      boxes.push_back(s);
    }
  }
  return boxes;
}

GanttRows fit_rows(std::size_t rows) {
  const std::size_t shown = std::max<std::size_t>(rows, 2);
  GanttRows fit;
  const std::size_t all = static_cast<std::size_t>(kFramePixels) + kRowPixels * shown;
  if (all <= static_cast<std::size_t>(kCairoMaxPixels)) {
    fit.height = static_cast<int>(all);
    fit.row_pixels = kRowPixels;
    return fit;
  }
  fit.compressed = true;
  fit.height = kCairoMaxPixels;
  fit.row_pixels = static_cast<double>(kCairoMaxPixels - kFramePixels) / static_cast<double>(shown);
  fit.label_every = static_cast<std::size_t>(std::ceil(kLabelPixels / fit.row_pixels));
  return fit;
}

}  // namespace peppher::perfdata
