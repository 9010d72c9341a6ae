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

std::map<std::size_t, std::vector<GanttBox>> pixel_boxes(std::vector<GanttSpan> spans,
                                                         double pixel) {
  std::sort(spans.begin(), spans.end(), [](const GanttSpan& a, const GanttSpan& b) {
    return a.row != b.row ? a.row < b.row : a.from < b.from;
  });
  std::map<std::size_t, std::vector<GanttBox>> boxes;
  // The pixel being filled with narrow spans: its row, index, extent and per colour the time
  // and the number of spans there.
  bool open = false;
  std::size_t row = 0;
  long long index = 0;
  GanttBox extent;
  std::map<std::size_t, std::pair<double, long>> weight;
  const auto close = [&] {
    if (!open) return;
    auto best = weight.begin();
    for (auto it = weight.begin(); it != weight.end(); ++it)
      if (it->second > best->second) best = it;
    boxes[best->first].push_back(extent);
    weight.clear();
    open = false;
  };
  for (const GanttSpan& s : spans) {
    if (s.to - s.from >= pixel) {
      boxes[s.colour].push_back({s.from, s.to, s.row});
      continue;
    }
    // Spans before the axis's origin (never drawn) share one pixel; every other start is
    // at most the axis's end, so the index is at most its pixels.
    const long long at = s.from < 0 ? -1 : static_cast<long long>(std::floor(s.from / pixel));
    if (open && (row != s.row || index != at)) close();
    if (!open) {
      open = true;
      row = s.row;
      index = at;
      extent = {s.from, s.to, s.row};
    }
    extent.to = std::max(extent.to, s.to);
    auto& [time, count] = weight[s.colour];
    time += s.to - s.from;
    ++count;
  }
  close();
  for (auto& [colour, list] : boxes) list = coalesce(std::move(list), pixel);
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
