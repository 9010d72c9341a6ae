// Training runs (see training.h): adaptive sampling per context parameter, the timing of
// each forced variant, and the performance table.
#include "peppher/training.h"

#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include "common/files.h"
#include "common/markup.h"
#include "peppher/error.h"
#include "peppher/placement.h"
#include "peppher/selection.h"

namespace peppher {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const VariantSelector& selector_of(const std::string& interface_name) {
  for (const VariantSelector* s : selectors()) {
    if (s->interface_name() == interface_name) return *s;
  }
  throw Error("training: this program has no composed interface '" + interface_name + "'");
}

// The clock of a timed call: how long the call kept its busiest worker executing its tasks,
// from StarPU's per-worker profiling (a task's codelet function from start to end, so an
// OpenCL kernel's run until clFinish returns). Wall time around call + wait also counted
// data transfers and, on a loaded machine, the scheduler ticks (~4 ms) it took to wake the
// workers and the waiting thread: trained OpenCL times came out as multiples of 4 ms.
// Data transfers are the bus model's part of a cost, not the variant's.
class BusyClock {
 public:
  BusyClock() : was_on_(starpu_profiling_status_get() == STARPU_PROFILING_ENABLE) {
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
  }
  ~BusyClock() {
    if (!was_on_) starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
  }
  BusyClock(const BusyClock&) = delete;
  BusyClock& operator=(const BusyClock&) = delete;

  void start() {
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
      starpu_profiling_worker_get_info(static_cast<int>(w), nullptr);  // resets its counters
    }
  }
  /// Microseconds the busiest worker spent executing since start(); 0 when none ran.
  double busiest_us() const {
    double most = 0;
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
      starpu_profiling_worker_info info{};
      if (starpu_profiling_worker_get_info(static_cast<int>(w), &info) != 0) continue;
      most = std::max(most, starpu_timing_timespec_to_us(&info.executing_time));
    }
    return most;
  }

 private:
  bool was_on_;
};

// The index of the fastest measured variant, -1 if none was measured.
int fastest(const std::vector<double>& times) {
  int best = -1;
  for (size_t v = 0; v < times.size(); ++v) {
    if (std::isnan(times[v])) continue;
    if (best < 0 || times[v] < times[best]) best = static_cast<int>(v);
  }
  return best;
}

// The fastest variant when it beats every other by more than `margin` (relative), else -1:
// within the margin the times are a tie (noise), not a decision boundary.
int clear_winner(const std::vector<double>& times, double margin) {
  const int best = fastest(times);
  if (best < 0) return -1;
  for (size_t v = 0; v < times.size(); ++v) {
    if (static_cast<int>(v) != best && !std::isnan(times[v]) &&
        times[v] <= times[best] * (1 + margin)) {
      return -1;
    }
  }
  return best;
}

// Between a and b: geometric over wide intervals (sizes), arithmetic over narrow ones.
long long middle(long long a, long long b) {
  if (a > 0 && b >= 4 * a) return std::llround(std::sqrt(double(a) * double(b)));
  return a + (b - a) / 2;
}

// The time at @p x on the line through (a, ta) and (b, tb) in log-log space (a < x < b);
// the nearer end's time when a time is missing or not positive.
double log_log_between(long long a, double ta, long long b, double tb, long long x) {
  if (std::isnan(ta) || std::isnan(tb) || ta <= 0 || tb <= 0 || a <= 0)
    return x - a < b - x ? ta : tb;
  const double w =
      (std::log(double(x)) - std::log(double(a))) / (std::log(double(b)) - std::log(double(a)));
  return std::exp(std::log(ta) + w * (std::log(tb) - std::log(ta)));
}

}  // namespace

double Trainer::now_us() const {
  if (options_.clock_us) return options_.clock_us();
#ifdef STARPU_SIMGRID
  return starpu_timing_now();  // simulated: StarPU's simulated clock, not this host's
#else
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

double Trainer::time_variant(const TrainingTarget& target, int variant,
                             const std::vector<long long>& point) {
  const VariantSelector& sel = selector_of(target.interface_name);
  if (target.accepts && !target.accepts(variant, point)) return kNaN;
  if (detail::workers_of(sel.backend(variant)) == 0) return kNaN;
  force_variant(target.interface_name, sel.variants()[variant]);
  std::vector<double> us;
  BusyClock clock;
  try {
    target.call(point);  // warm-up: kernels built, buffers allocated
    for (int r = 0; r < options_.repetitions; ++r) {
      const double start = now_us();
      clock.start();
      target.call(point);
      const double busy = clock.busiest_us();
      // A call whose work ran outside any task (none submitted) is timed on the clock.
      us.push_back(busy > 0 ? busy : now_us() - start);
    }
  } catch (const Error& e) {
    std::cerr << "peppher training: " << target.interface_name << " / " << sel.variants()[variant]
              << ": " << e.what() << "\n";
    force_variant(target.interface_name, "");
    return kNaN;
  }
  force_variant(target.interface_name, "");
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  return us[us.size() / 2];
}

const std::vector<double>& Trainer::measure(const TrainingTarget& target, Result& result,
                                            const std::vector<long long>& point) {
  auto it = result.times.find(point);
  if (it != result.times.end()) return it->second;
  std::vector<double> times;
  for (size_t v = 0; v < result.variants.size(); ++v) {
    times.push_back(time_variant(target, static_cast<int>(v), point));
  }
  return result.times.emplace(point, std::move(times)).first->second;
}

void Trainer::train(const TrainingTarget& target) {
  Result result;
  result.interface_name = target.interface_name;
  result.context = target.context;
  result.variants = selector_of(target.interface_name).variants();
  std::vector<long long> mid;
  for (const ContextRange& c : target.context) mid.push_back(middle(c.lo, c.hi));

  // Along each context parameter (the others at their middle): start with both ends and
  // the middle; split an interval again where the winner changes or where log-log
  // interpolation between its ends misses the measured middle by more than `accuracy`.
  std::vector<std::vector<long long>> axes;
  for (size_t d = 0; d < target.context.size(); ++d) {
    auto at = [&](long long x) -> const std::vector<double>& {
      std::vector<long long> p = mid;
      p[d] = x;
      return measure(target, result, p);
    };
    const ContextRange& c = target.context[d];
    auto winner = [&](const std::vector<double>& times) {
      return clear_winner(times, options_.accuracy);
    };
    std::set<long long> xs = {c.lo, middle(c.lo, c.hi), c.hi};
    for (long long x : xs) at(x);
    // Open intervals, the most promising split first: where the winner changes (a decision
    // boundary; the costliest one first, as a wrong choice there loses the most time), then
    // where the last split found the largest interpolation error.
    struct Open {
      long long a, b;
      double score;
    };
    std::vector<Open> open;
    auto add = [&](long long a, long long b, double error) {
      const std::vector<double>& ta = at(a);
      const std::vector<double>& tb = at(b);
      if (winner(ta) == winner(tb)) {
        open.push_back({a, b, error});
        return;
      }
      double stake = 0;  // the largest gap between variants at either end, in us
      for (const auto* t : {&ta, &tb}) {
        const int best = fastest(*t);
        for (double us : *t) {
          if (best >= 0 && !std::isnan(us)) stake = std::max(stake, us - (*t)[best]);
        }
      }
      open.push_back({a, b, 1e12 + stake});
    };
    for (auto a = xs.begin(), b = std::next(a); b != xs.end(); ++a, ++b) add(*a, *b, 1.0);
    while (!open.empty() && static_cast<int>(xs.size()) < options_.max_points_per_context) {
      auto best = std::max_element(open.begin(), open.end(),
                                   [](const Open& l, const Open& r) { return l.score < r.score; });
      const Open o = *best;
      open.erase(best);
      const long long m = middle(o.a, o.b);
      // Located to within the accuracy: a finer boundary would only chase noise.
      if (m <= o.a || m >= o.b || double(o.b - o.a) <= options_.accuracy * double(o.a)) continue;
      const std::vector<double> ta = at(o.a), tb = at(o.b), tm = at(m);
      xs.insert(m);
      double error = 0;  // the worst relative miss of log-log interpolation at m
      for (size_t v = 0; v < tm.size(); ++v) {
        const double predicted = log_log_between(o.a, ta[v], o.b, tb[v], m);
        if (!std::isnan(tm[v]) && !std::isnan(predicted) && tm[v] > 0) {
          error = std::max(error, std::abs(predicted - tm[v]) / tm[v]);
        }
      }
      const bool changes = winner(ta) != winner(tb) || winner(tm) != winner(ta);
      if (changes || error > options_.accuracy) {
        add(o.a, m, error);
        add(m, o.b, error);
      }
    }
    axes.emplace_back(xs.begin(), xs.end());
    std::cerr << "peppher training: " << target.interface_name << ": " << xs.size() << " sizes of "
              << c.name << " in " << c.lo << ".." << c.hi << "\n";
  }

  // Every combination of the chosen values: the table is a grid, as static dispatch wants.
  std::vector<std::vector<long long>> grid = {{}};
  for (const auto& axis : axes) {
    std::vector<std::vector<long long>> next;
    for (const auto& prefix : grid) {
      for (long long x : axis) {
        next.push_back(prefix);
        next.back().push_back(x);
      }
    }
    grid = std::move(next);
  }
  std::map<std::vector<long long>, std::vector<double>> kept;
  for (const auto& p : grid) kept[p] = measure(target, result, p);
  result.times = std::move(kept);
  results_.push_back(std::move(result));
}

std::string Trainer::table_xml() const {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      // (No double hyphen inside an XML comment: option names stay out of it.)
      << "<!-- Written by a PEPPHER training run (make train, or compose's train option):\n"
      << "     median time in microseconds each variant's tasks kept a worker busy, at each\n"
      << "     sampled context point. Read by static dispatch and the table-driven\n"
      << "     performance models. -->\n"
      << "<peppher:performanceTable xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\""
      << " platform=\"" << common::xml_escape(options_.platform) << "\" accuracy=\""
      << options_.accuracy << "\">\n";
  for (const Result& r : results_) {
    out << "  <peppher:interface name=\"" << common::xml_escape(r.interface_name) << "\">\n";
    for (const ContextRange& c : r.context) {
      out << "    <peppher:context name=\"" << common::xml_escape(c.name) << "\" lo=\"" << c.lo
          << "\" hi=\"" << c.hi << "\"/>\n";
    }
    for (const auto& [point, times] : r.times) {
      out << "    <peppher:point values=\"";
      for (size_t k = 0; k < point.size(); ++k) out << (k ? "," : "") << point[k];
      out << "\">\n";
      for (size_t v = 0; v < times.size(); ++v) {
        if (std::isnan(times[v])) continue;  // not runnable there (constraints, no worker)
        char us[32];
        std::snprintf(us, sizeof us, "%.3f", times[v]);
        out << "      <peppher:time variant=\"" << common::xml_escape(r.variants[v]) << "\" us=\""
            << us << "\"/>\n";
      }
      out << "    </peppher:point>\n";
    }
    out << "  </peppher:interface>\n";
  }
  out << "</peppher:performanceTable>\n";
  return out.str();
}

void Trainer::write(const std::string& path) const {
  if (const std::string problem = files::write_file(path, table_xml()); !problem.empty())
    throw Error("training: the table was not written: '" + path + "' " + problem);
}

double trained_cost(const TrainedGrid& grid, const long long* point, int variant) {
  // Per axis: the two surrounding values and the log-space weight of the upper one.
  constexpr int kMaxDims = 8;
  if (grid.dims <= 0 || grid.dims > kMaxDims) return kNaN;
  int lower[kMaxDims], upper[kMaxDims];
  double weight[kMaxDims];
  const long long* axis = grid.axes;
  for (int d = 0; d < grid.dims; ++d) {
    const int n = grid.sizes[d];
    const long long x = point[d];
    int i = static_cast<int>(std::upper_bound(axis, axis + n, x) - axis);
    lower[d] = std::max(0, std::min(i - 1, n - 1));
    upper[d] = std::min(i, n - 1);
    weight[d] = 0;
    if (lower[d] != upper[d] && axis[lower[d]] > 0 && x > 0) {
      weight[d] = (std::log(double(x)) - std::log(double(axis[lower[d]]))) /
                  (std::log(double(axis[upper[d]])) - std::log(double(axis[lower[d]])));
    }
    axis += n;
  }
  // Multilinear over the 2^dims corners, in log time; unmeasured corners are skipped.
  // When every weighted corner is missing: the first measured corner, if any.
  double sum = 0, total = 0, fallback = kNaN;
  for (int corner = 0; corner < (1 << grid.dims); ++corner) {
    long long cell = 0;
    double w = 1;
    for (int d = 0; d < grid.dims; ++d) {
      const bool up = (corner >> d) & 1;
      cell = cell * grid.sizes[d] + (up ? upper[d] : lower[d]);
      w *= up ? weight[d] : 1 - weight[d];
    }
    const double t = grid.us[cell * grid.variants + variant];
    if (std::isnan(fallback) && !std::isnan(t)) fallback = t;
    if (w <= 0 || std::isnan(t) || t <= 0) continue;
    sum += w * std::log(t);
    total += w;
  }
  return total > 0 ? std::exp(sum / total) : fallback;
}

TrainingOptions training_options_from_environment(const std::string& platform) {
  TrainingOptions o;
  o.platform = platform;
  if (const char* p = std::getenv("PEPPHER_TRAIN_POINTS"))
    o.max_points_per_context = std::max(3, std::atoi(p));
  if (const char* r = std::getenv("PEPPHER_TRAIN_REPS")) o.repetitions = std::max(1, std::atoi(r));
  if (const char* a = std::getenv("PEPPHER_TRAIN_ACCURACY")) o.accuracy = std::atof(a);
  return o;
}

}  // namespace peppher
