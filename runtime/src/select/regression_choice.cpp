// The choice of variant for a call whose regression model (StarPU's a*n^b, or a*n^b+c) cannot
// yet predict it from StarPU alone (RegressionChoice, placement.h; docs/SELECTION.md,
// "Regression models"): which variant is measured next, and the fitted law's prediction
// beyond the sizes StarPU's regression was measured at.
#include "select/regression_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

#include "peppher/detail/backends.h"
#include "peppher/placement.h"
#include "select/calibrating_choice.h"

namespace peppher {
namespace {

// StarPU trusts a regression once its sizes spread more than 10 % (VALID_REGRESSION in
// perfmodel_history.c) and predicts only within 10 % of the measured range.
constexpr double kSpread = 0.9;
constexpr double kMargin = 0.1;
// A variant predicted only by extrapolation, at most this many times the best's expected
// time, is measured at a size beyond those it ran at (so that the law it is compared with
// comes from measurements near the sizes the program uses).
constexpr double kCompetitive = 2.0;

// Per (interface, variant): the regression's measurement count (summed over its workers)
// when this session last ran it to measure it, so that it runs again only once that run's
// measurement has arrived (asynchronous calls in between take the predicted best).
std::mutex g_explored_mutex;
std::map<std::pair<const VariantSelector*, int>, unsigned> g_explored;

bool may_explore(const VariantSelector* selector, int k, unsigned samples) {
  std::lock_guard<std::mutex> lock(g_explored_mutex);
  const auto it = g_explored.find({selector, k});
  return it == g_explored.end() || it->second != samples;
}

void note_explored(const VariantSelector* selector, int k, unsigned samples) {
  std::lock_guard<std::mutex> lock(g_explored_mutex);
  g_explored[{selector, k}] = samples;
}

// The regression's n for @p task: the model's size_base, else the sum of its data sizes
// (as StarPU computes it when no size_base is given).
double task_size(const starpu_perfmodel* model, starpu_task* task, unsigned impl) {
  if (model->size_base != nullptr) return static_cast<double>(model->size_base(task, impl));
  double size = 0;
  for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
    size += static_cast<double>(starpu_data_get_size(STARPU_TASK_GET_HANDLE(task, i)));
  return size;
}

// @p model's regression for implementation @p impl on @p arch, or null (never measured there,
// or the model not loaded yet).
const starpu_perfmodel_regression_model* regression(starpu_perfmodel* model,
                                                    starpu_perfmodel_arch* arch, unsigned impl) {
  if (model->state == nullptr) return nullptr;
  const starpu_perfmodel_per_arch* per_arch =
      starpu_perfmodel_get_model_per_arch(model, arch, impl);
  return per_arch != nullptr ? &per_arch->regression : nullptr;
}

// The prediction of @p r at @p size (microseconds), or NaN (regression_us, regression_choice.h).
// The power law comes from StarPU's running sums rather than its alpha and beta, which
// StarPU writes as NaN with a single sample and which a loaded file may leave stale.
double law(const starpu_perfmodel* model, const starpu_perfmodel_regression_model& r, double size) {
  if (r.nsample == 0 || !(size > 0)) return std::numeric_limits<double>::quiet_NaN();
  const double n = r.nsample;
  const double minx = static_cast<double>(r.minx), maxx = static_cast<double>(r.maxx);
  if (model->type == STARPU_NL_REGRESSION_BASED && r.nl_valid) {  // fitted at the last save
    const double us = r.a * std::pow(size, r.b) + r.c;
    if (std::isfinite(us) && us > 0) return us;
  }
  if (minx < kSpread * maxx) {  // sizes far enough apart: the least-squares line in log-log
    const double denom = n * r.sumlnx2 - r.sumlnx * r.sumlnx;
    if (denom > 0) {
      const double beta = (n * r.sumlnxlny - r.sumlnx * r.sumlny) / denom;
      const double alpha = std::exp((r.sumlny - beta * r.sumlnx) / n);
      const double us = alpha * std::pow(size, beta);
      if (std::isfinite(us) && us > 0) return us;
    }
  }
  // One size (or sizes too close to fit): their geometric mean, near those sizes only.
  if (size >= (1 - kMargin) * minx && size <= (1 + kMargin) * maxx) return std::exp(r.sumlny / n);
  return std::numeric_limits<double>::quiet_NaN();
}

// Whether a measurement at @p size would make @p r's law valid or wider: never measured,
// or @p size outside what it was measured at by more than StarPU's margin.
bool widens(const starpu_perfmodel_regression_model* r, double size) {
  if (r == nullptr || r->nsample == 0) return true;
  return size < (1 - kMargin) * static_cast<double>(r->minx) ||
         size > (1 + kMargin) * static_cast<double>(r->maxx);
}

// StarPU 1.3 saves a worker architecture's implementations 0 to n - 1 only, n the number it
// has measured there: an OpenMP variant in slot 1, measured alone on a combined worker, would
// be lost at shutdown. So before its first measurement there, the lower slots of that
// architecture are made known to StarPU (without a measurement: the history rule's empty
// entries would put a time of 0 into a regression's logarithms), once per process. StarPU
// takes no lock there: this runs before the variant's first task on that architecture.
std::mutex g_marked_mutex;
std::set<std::tuple<const starpu_perfmodel*, int, unsigned>> g_marked;

void keep_lower_slots(starpu_perfmodel* model, starpu_perfmodel_arch* arch, unsigned impl) {
  if (impl == 0 || model->state == nullptr || arch->ndevices != 1) return;
  const starpu_perfmodel_per_arch* own = starpu_perfmodel_get_model_per_arch(model, arch, impl);
  if (own != nullptr && (own->regression.nsample > 0 || own->list != nullptr)) return;
  const int comb = starpu_perfmodel_arch_comb_get(arch->ndevices, arch->devices);
  const starpu_perfmodel_device& d = arch->devices[0];
  std::lock_guard<std::mutex> lock(g_marked_mutex);
  for (unsigned j = 0; j < impl; ++j) {
    const starpu_perfmodel_per_arch* lower = starpu_perfmodel_get_model_per_arch(model, arch, j);
    if (lower != nullptr && (lower->regression.nsample > 0 || lower->list != nullptr)) continue;
    if (!g_marked.insert({model, comb, j}).second) continue;
    starpu_perfmodel_get_model_per_devices(model, static_cast<int>(j), d.type, d.devid, d.ncores,
                                           -1);
  }
}

starpu_perfmodel_arch* arch_of(int worker) {
  return starpu_worker_get_perf_archtype(worker, STARPU_NMAX_SCHED_CTXS);
}

}  // namespace

// Per candidate variant of a call: whether StarPU predicts it on every worker it may run on,
// whether the fitted law does, whether a run here would widen its law, its regression's
// measurements, and its least expected time (prediction plus moving the operands; the moves
// alone where unpredicted).
struct RegressionChoice::Costs {
  bool candidate[PlacementChoice::kMaxVariants] = {};
  bool starpu_predicts[PlacementChoice::kMaxVariants] = {};
  bool predicted[PlacementChoice::kMaxVariants] = {};
  bool widens[PlacementChoice::kMaxVariants] = {};
  unsigned samples[PlacementChoice::kMaxVariants] = {};
  double cost[PlacementChoice::kMaxVariants] = {};
  int candidates = 0;
};

void detail::forget_regression_runs() {
  std::lock_guard<std::mutex> lock(g_explored_mutex);
  g_explored.clear();
}

double detail::regression_us(starpu_perfmodel* model, starpu_task* task,
                             starpu_perfmodel_arch* arch, unsigned impl) {
  if (model->type != STARPU_REGRESSION_BASED && model->type != STARPU_NL_REGRESSION_BASED)
    return std::numeric_limits<double>::quiet_NaN();
  const starpu_perfmodel_regression_model* r = regression(model, arch, impl);
  return r != nullptr ? law(model, *r, task_size(model, task, impl))
                      : std::numeric_limits<double>::quiet_NaN();
}

void RegressionChoice::evaluate(starpu_task* task, Costs& c) const {
  starpu_perfmodel* model = task->cl->model;
  int ids[STARPU_NMAXWORKERS];
  for (int k = 0, n = nvariants(); k < n; ++k) {
    const int count = candidate_workers_of(k, ids);
    if (count == 0) continue;
    const unsigned impl = static_cast<unsigned>(slots_[k]);
    const double size = task_size(model, task, impl);
    bool starpu_all = true, all = true, wider = false;
    unsigned samples = 0;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
      starpu_perfmodel_arch* arch = arch_of(ids[i]);
      // StarPU's own prediction first: it also loads the model (its state) on first use.
      starpu_all = starpu_all && !std::isnan(starpu_task_expected_length(task, arch, impl));
      const starpu_perfmodel_regression_model* r = regression(model, arch, impl);
      const double us = r != nullptr ? law(model, *r, size) : std::nan("");
      samples += r != nullptr ? r->nsample : 0;
      wider = wider || widens(r, size);
      all = all && !std::isnan(us);
      best = std::min(best, (std::isnan(us) ? 0 : us) + move_us(ids[i]));
    }
    c.candidate[k] = true;
    c.starpu_predicts[k] = starpu_all;
    c.predicted[k] = all;
    c.widens[k] = wider;
    c.samples[k] = samples;
    c.cost[k] = best;
    ++c.candidates;
  }
}

int RegressionChoice::choose(starpu_task* task) const {
  if (selector_ == nullptr || task->cl == nullptr || task->cl->model == nullptr) return -1;
  const starpu_perfmodel_type type = task->cl->model->type;
  if (type != STARPU_REGRESSION_BASED && type != STARPU_NL_REGRESSION_BASED) return -1;
  const int n = nvariants();
  Costs c;
  evaluate(task, c);
  if (c.candidates < 2) return -1;  // nothing to choose: StarPU places it
  bool starpu_all = true;
  for (int k = 0; k < n; ++k) starpu_all = starpu_all && (!c.candidate[k] || c.starpu_predicts[k]);
  if (starpu_all) return -1;  // StarPU's scheduler weighs the same laws, and its queues
  // The predicted best (the fitted law, extrapolated where need be, plus the moves).
  int best = -1;
  for (int k = 0; k < n; ++k)
    if (c.candidate[k] && c.predicted[k] && (best < 0 || c.cost[k] < c.cost[best])) best = k;
  // To measure now, where its run widens what it was measured at: a candidate the law cannot
  // predict here; else one predicted only by extrapolation and within kCompetitive times the
  // best's expected time (one predicted far slower is not run to confirm it). Unknown ones
  // first, then under Merge's rule the most specific, then the cheapest; each again only
  // once its last such run's measurement has arrived.
  bool specific_candidate = false;
  for (int k = 0; k < n; ++k)
    specific_candidate = specific_candidate || (c.candidate[k] && first_[k]);
  auto wanted = [&](int k) {
    if (!c.candidate[k] || c.starpu_predicts[k] || !c.widens[k]) return false;
    if (!c.predicted[k]) return true;
    return best >= 0 && k != best && c.cost[k] <= kCompetitive * c.cost[best];
  };
  auto rank = [&](int k) {  // lower first
    const bool first = !specific_ || !specific_candidate || first_[k];
    return std::make_tuple(c.predicted[k], !first, c.cost[k]);
  };
  int explore = -1;
  for (int k = 0; k < n; ++k) {
    if (!wanted(k) || !may_explore(selector_, k, c.samples[k])) continue;
    if (explore < 0 || rank(k) < rank(explore)) explore = k;
  }
  const int chosen = explore >= 0 ? explore : best;
  if (chosen < 0) return -1;
  if (explore >= 0) note_explored(selector_, explore, c.samples[explore]);
  int ids[STARPU_NMAXWORKERS];
  const int count =
      detail::candidate_workers(selector_->backend(static_cast<std::size_t>(chosen)), ids);
  for (int i = 0; i < count; ++i)
    keep_lower_slots(task->cl->model, arch_of(ids[i]), static_cast<unsigned>(slots_[chosen]));
  return chosen;
}

}  // namespace peppher
