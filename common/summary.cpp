// The report's numbers (see summary.h).
#include "common/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace peppher::perfdata {

Summary summarize(const Trace& trace) {
  Summary s;
  double first = std::numeric_limits<double>::infinity(), last = 0;
  for (const TaskSpan& t : trace.tasks) {
    first = std::min(first, t.submit);
    last = std::max(last, t.ts + t.dur);
  }
  s.span_us = trace.tasks.empty() ? 0 : last - std::min(first, last);

  std::map<std::string, InterfaceSummary> ifaces;
  std::map<std::string, std::set<long>> calls;
  std::map<std::string, std::map<std::pair<std::string, std::string>, VariantOnWorker>> runs;
  for (const TaskSpan& t : trace.tasks) {
    InterfaceSummary& i = ifaces[t.iface];
    i.name = t.iface;
    ++i.tasks;
    i.total_us += t.dur;
    calls[t.iface].insert(t.call);
    VariantOnWorker& r = runs[t.iface][{t.variant, t.worker}];
    r.variant = t.variant;
    r.worker = t.worker;
    ++r.tasks;
    r.total_us += t.dur;
  }
  for (const TransferSpan& x : trace.transfers) {
    InterfaceSummary& i = ifaces[x.iface];
    i.name = x.iface;
    i.bytes_moved += x.bytes;
    ++i.transfers;
  }
  for (auto& [name, i] : ifaces) {
    i.calls = static_cast<long>(calls[name].size());
    for (auto& [key, r] : runs[name]) i.runs.push_back(r);
    s.interfaces.push_back(i);
  }
  // Each task counts for every track of its thread id, in the trace's order (one pass: a
  // trace may have thousands of workers and millions of tasks).
  std::multimap<int, std::size_t> tracks;  // tid -> index in s.workers
  for (const Track& w : trace.workers) {
    tracks.emplace(w.tid, s.workers.size());
    s.workers.push_back({w.name, 0, 0, 0});
  }
  for (const TaskSpan& t : trace.tasks) {
    auto [from, to] = tracks.equal_range(t.tid);
    for (auto it = from; it != to; ++it) {
      ++s.workers[it->second].tasks;
      s.workers[it->second].busy_us += t.dur;
    }
  }
  for (WorkerSummary& ws : s.workers)
    ws.idle_share = s.span_us > 0 ? std::max(0.0, 1.0 - ws.busy_us / s.span_us) : 1.0;
  for (const BusTotal& b : trace.bus) s.bus_bytes += b.bytes;
  return s;
}

std::vector<WinRegion> win_regions(const Curve& curve) {
  std::set<double> sizes;
  for (const auto& [variant, points] : curve.us)
    for (const auto& [size, us] : points) sizes.insert(size);
  std::vector<double> xs(sizes.begin(), sizes.end());
  std::vector<WinRegion> regions;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    std::string best;
    double best_us = std::numeric_limits<double>::infinity();
    for (const auto& [variant, points] : curve.us) {
      auto it = points.find(xs[k]);
      if (it != points.end() && it->second < best_us) {
        best_us = it->second;
        best = variant;
      }
    }
    const double from = k == 0 ? xs[k] : std::sqrt(xs[k - 1] * xs[k]);
    const double to = k + 1 == xs.size() ? xs[k] : std::sqrt(xs[k] * xs[k + 1]);
    if (!regions.empty() && regions.back().variant == best) {
      regions.back().to = to;
    } else {
      regions.push_back({from, to, best});
    }
  }
  return regions;
}

std::vector<std::string> variant_palette(const Trace* trace, const std::vector<Curve>& curves) {
  std::set<std::string> names;
  if (trace != nullptr)
    for (const TaskSpan& t : trace->tasks) names.insert(t.variant);
  for (const Curve& c : curves)
    for (const auto& [variant, points] : c.us) names.insert(variant);
  return {names.begin(), names.end()};
}

}  // namespace peppher::perfdata
