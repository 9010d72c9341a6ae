// The report's figures, drawn by gnuplot (Debian's gnuplot package) as PNG files: the Gantt
// chart of workers and bus links coloured by variant, and per curve the time of every
// variant against size with the region where each wins shaded. Each figure is a data file
// and a script written into the output folder, then run by gnuplot (never through a
// shell; every name from a trace, table or model is quoted as data in the script). Every
// file is written whole and never through a link (files::write_file; gnuplot's picture goes
// to a fresh name moved onto the figure's); a link or FIFO there is a ReportError naming it.
#pragma once

#include <string>
#include <vector>

#include "common/model.h"
#include "common/summary.h"

namespace peppher::perfdata {

/// Writes gantt.png (and its .dat/.gp) into @p dir; returns the PNG's file name.
std::string draw_gantt(const Trace& trace, const std::vector<std::string>& palette,
                       const std::string& dir);

/// Writes curve_<k>.png (or .svg with @p svg) for @p curve into @p dir; returns its name.
std::string draw_curve(const Curve& curve, int k, const std::vector<std::string>& palette,
                       const std::string& dir, bool svg = false);

/// The SVG text of @p curve's figure (drawn in a temporary folder, then removed), for pages
/// that carry their figures inline.
std::string curve_svg(const Curve& curve, const std::vector<std::string>& palette);

/// The colour of palette entry @p index, "#rrggbb" (the page uses the same ones).
std::string colour(std::size_t index);

}  // namespace peppher::perfdata
