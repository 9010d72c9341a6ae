// The Gantt figure's layout at the picture's resolution: spans narrower than a pixel of the
// time axis become one box per pixel and row, and boxes of one row and one colour closer
// than a pixel merge (so the figure's data is bounded by rows x pixels, whatever the number
// of tasks), and rows shrink to fit the tallest
// picture Cairo draws. Drawing only: the summary's numbers come from every task.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

namespace peppher::perfdata {

/// The Gantt picture's width in pixels: the time axis spans at most this many.
inline constexpr int kGanttWidthPixels = 1000;

/// The tallest picture Cairo (pixman) draws: 32767 pixels a side.
inline constexpr int kCairoMaxPixels = 32767;

/// One box of the figure: from..to (ms) on `row`.
struct GanttBox {
  double from = 0, to = 0;
  std::size_t row = 0;
};

/// A task or transfer to draw: from..to (ms) on `row`, in palette colour `colour`.
struct GanttSpan {
  double from = 0, to = 0;
  std::size_t row = 0, colour = 0;
};

/// The boxes of @p spans at the resolution of @p pixel (ms), per colour: a span at least a
/// pixel wide is its own box; the narrower spans of one row that start in one pixel become
/// one box, coloured by the colour with the most time there (then the most spans); then
/// each colour's boxes are coalesced. Each colour has at most (pixels + 1) boxes a row.
std::map<std::size_t, std::vector<GanttBox>> pixel_boxes(std::vector<GanttSpan> spans,
                                                         double pixel);

/// @p spans (one colour) merged where, on one row, a span starts less than @p pixel after
/// the previous one ends (or overlaps it); sorted by row, then time.
std::vector<GanttBox> coalesce(std::vector<GanttBox> spans, double pixel);

/// How @p rows rows fit the picture: 40 pixels each below 140 pixels of title, axis and
/// key, or, where that would pass Cairo's limit, the limit's height shared among them with
/// one label every `label_every` rows (those that fit a line of text).
struct GanttRows {
  int height = 0;
  double row_pixels = 0;
  std::size_t label_every = 1;
  bool compressed = false;
};
GanttRows fit_rows(std::size_t rows);

}  // namespace peppher::perfdata
