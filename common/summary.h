// What the report says about a trace, computed once: per interface the calls, tasks, time
// per variant and worker and bytes moved; per worker the busy time and the share idle; and
// per curve where each variant wins. Figures, the page and --text only print these.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/model.h"

namespace peppher::perfdata {

struct VariantOnWorker {
  std::string variant, worker;
  long tasks = 0;
  double total_us = 0;
};

struct InterfaceSummary {
  std::string name;
  long calls = 0;
  long tasks = 0;
  double total_us = 0;
  std::size_t bytes_moved = 0;
  long transfers = 0;
  std::vector<VariantOnWorker> runs;  // sorted by variant, then worker
};

struct WorkerSummary {
  std::string name;
  long tasks = 0;
  double busy_us = 0;
  double idle_share = 0;  // of the traced span (first submission to last task end)
};

/// A size interval of a curve with the fastest variant there.
struct WinRegion {
  double from = 0, to = 0;
  std::string variant;
};

struct Summary {
  double span_us = 0;  // first submission to last task end
  std::vector<InterfaceSummary> interfaces;
  std::vector<WorkerSummary> workers;
  std::size_t bus_bytes = 0;  // StarPU's bus counters, all links
};

/// The summary of @p trace.
Summary summarize(const Trace& trace);

/// Where each variant of @p curve is fastest: one region per run of measured sizes with the
/// same winner, bounded at the geometric middle between neighbouring sizes.
std::vector<WinRegion> win_regions(const Curve& curve);

/// All variant names of the trace and the curves, sorted: a variant's colour is its index.
std::vector<std::string> variant_palette(const Trace* trace, const std::vector<Curve>& curves);

}  // namespace peppher::perfdata
