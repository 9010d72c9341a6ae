// The choice of variant while a call's history model is still learning (CalibratingChoice,
// placement.h; docs/SELECTION.md "Calls whose model is still learning"): what this session
// learnt of each call, which unmeasured variant runs next, and when StarPU's model decides.
#include "select/calibrating_choice.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "devices/devices.h"
#include "peppher/detail/backends.h"
#include "peppher/placement.h"
#include "peppher/task.h"
#include "select/history_index.h"

namespace peppher {
namespace {

// Measurements after which a measured variant that is not the best is no longer run again,
// unless its measurements leave it plausibly the best (see choose()).
constexpr int kConfirmed = 2;

// How many standard deviations below its mean a measured loser's time may plausibly be:
// the usual two (about 95 % of a normal spread).
constexpr double kPlausibleDeviations = 2;

// A first call (nothing measured) whose best host choice is a sequential variant on one core
// runs a device variant instead when moving its operands there and back is expected to take
// at most this (docs/SELECTION.md): small data for the call suggests work that the device's
// parallelism pays for (PolyBench-ACC's FDTD-2D: 12 MB, 5 ms to pocl, 0.28 s there against
// 1.03 s sequential), large data one pass over it that the copies alone may outweigh (ATAX:
// 576 MB, 0.26 s to pocl for a 0.14 s sequential run; BICG: 256 MB, 0.12 s for 0.19 s).
constexpr double kCheapMoveUs = 20000;

// What this session learnt of each call (interface, data footprint) so far.
struct CallHistory {
  // Every candidate was measured (and confirmed): StarPU's scheduler chooses from then on
  // (measurements stay), without looking.
  bool settled = false;
  // The unmeasured variants run here, each until StarPU's model predicts it (more than once
  // where STARPU_CALIBRATE_MINIMUM asks for several measurements): per variant, its count of
  // recorded runs (runs_recorded) when it last ran, so that it runs again only once that
  // run's measurement has arrived (calls in between take the measured best).
  std::map<int, int> explored;
  // The measured losers that ran once more (kConfirmed).
  std::set<int> confirmed;
  // The unmeasured variants that lost clearly at the most similar call measured
  // (beaten_nearby): not explored here in this session.
  std::set<int> beaten;
  // (Settled) whether the model's best was a host variant.
  bool best_on_host = false;
};
std::mutex g_history_mutex;
std::map<std::pair<const VariantSelector*, std::uint32_t>, CallHistory> g_history;

// Whether the call is settled; @p best_on_host: whether its best is a host variant.
bool settled(const VariantSelector* selector, std::uint32_t footprint, bool& best_on_host) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  const auto it = g_history.find({selector, footprint});
  if (it == g_history.end() || !it->second.settled) return false;
  best_on_host = it->second.best_on_host;
  return true;
}

// Whether measured loser k runs once more now (the first time it is asked).
bool confirm_now(const VariantSelector* selector, std::uint32_t footprint, int k) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  return g_history[{selector, footprint}].confirmed.insert(k).second;
}

// Whether unmeasured variant k, with @p recorded runs (runs_recorded), may run now: never ran
// here, or the measurement of its last run has arrived (the count changed since).
bool may_explore(const VariantSelector* selector, std::uint32_t footprint, int k, int recorded) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  const std::map<int, int>& explored = g_history[{selector, footprint}].explored;
  const auto it = explored.find(k);
  return it == explored.end() || it->second != recorded;
}

// Notes that variant k runs now, with @p recorded runs so far.
void note_explored(const VariantSelector* selector, std::uint32_t footprint, int k, int recorded) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  g_history[{selector, footprint}].explored[k] = recorded;
}

bool noted_beaten(const VariantSelector* selector, std::uint32_t footprint, int k) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  return g_history[{selector, footprint}].beaten.count(k) != 0;
}

void note_beaten(const VariantSelector* selector, std::uint32_t footprint, int k) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  g_history[{selector, footprint}].beaten.insert(k);
}

void settle(const VariantSelector* selector, std::uint32_t footprint, bool best_on_host) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  CallHistory& h = g_history[{selector, footprint}];
  h.settled = true;
  h.best_on_host = best_on_host;
}

// @p model's history entry for @p task's footprint on @p arch, implementation @p impl, or null.
const starpu_perfmodel_history_entry* history_entry(starpu_perfmodel* model, starpu_task* task,
                                                    starpu_perfmodel_arch* arch, unsigned impl) {
  return detail::history_entry_of(starpu_perfmodel_get_model_per_arch(model, arch, impl),
                                  starpu_task_footprint(model, task, arch, impl));
}

// The measurements the entry keeps: -1 without an entry, 0 for an entry whose first
// measurement StarPU dropped ("very often quite bogus"): the task that creates an entry
// teaches nothing.
int samples(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
            unsigned impl) {
  const starpu_perfmodel_history_entry* e = history_entry(model, task, arch, impl);
  return e != nullptr ? static_cast<int>(e->nsample) : -1;
}

// The runs the entry has recorded: measurements kept plus those StarPU set aside as too far
// from the mean (both go back to 0 when it starts the entry afresh), so that any change says
// that a run's measurement arrived; -1 without an entry.
int runs_recorded(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
                  unsigned impl) {
  const starpu_perfmodel_history_entry* e = history_entry(model, task, arch, impl);
  return e != nullptr ? static_cast<int>(e->nsample + e->nerror) : -1;
}

// The standard deviation of the entry's kept measurements (StarPU's own, 0 without two of
// them). StarPU keeps only measurements within STARPU_HISTORY_MAX_ERROR of the mean (others
// count as errors and, once as many as the measurements, restart the entry).
double spread(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
              unsigned impl) {
  const starpu_perfmodel_history_entry* e = history_entry(model, task, arch, impl);
  return e != nullptr && e->nsample >= 2 ? e->deviation : 0;
}

// Makes @p model's entries for @p task's footprint on @p arch that do not exist yet, for
// implementation @p impl and the lower ones, with no measurement, unless StarPU predicts
// @p impl there already: StarPU drops the first measurement of a new entry ("very often
// quite bogus"), and StarPU 1.3 saves a worker architecture's implementations 0 to n - 1
// only, n the number it has entries for.
void make_entries(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
                  unsigned impl) {
#ifndef STARPU_SIMGRID  // no measurements there: StarPU asserts
  if (!std::isnan(starpu_task_expected_length(task, arch, impl))) return;
  for (unsigned j = 0; j <= impl; ++j)
    if (samples(model, task, arch, j) < 0)
      starpu_perfmodel_update_history(model, task, arch, 0, j, 0.0);  // value unused
#else
  (void)model, (void)task, (void)arch, (void)impl;
#endif
}

// The order of equal costs: OpenMP on all cores, then sequential CPU, then devices.
int tie_rank(detail::BackendRuns how, bool parallel) {
  using Runs = detail::BackendRuns;
  return how == Runs::Team ? (parallel ? 0 : 2) : how == Runs::OneCore ? 1 : 3;
}

// Whether variant a is strictly better than b (b < 0: none yet): less cost, equal costs in
// tie_rank order.
bool better_than(const double* cost, int a, int b, const VariantSelector& selector, bool parallel) {
  auto rank = [&](int k) {
    return tie_rank(selector.backend(static_cast<std::size_t>(k)).runs, parallel);
  };
  return b < 0 || cost[a] < cost[b] || (cost[a] == cost[b] && rank(a) < rank(b));
}

// Variant slot @p impl's mean at @p footprint, the least over @p backend's candidate workers'
// architectures where it was measured at least once (its deviation in @p deviation); NaN
// where it never was.
double mean_at(starpu_perfmodel* model, const detail::Backend& backend, unsigned impl,
               std::uint32_t footprint, double& deviation) {
  int ids[STARPU_NMAXWORKERS];
  double mean = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0, count = detail::candidate_workers(backend, ids); i < count; ++i) {
    starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[i], STARPU_NMAX_SCHED_CTXS);
    const starpu_perfmodel_history_entry* e =
        detail::history_entry_of(starpu_perfmodel_get_model_per_arch(model, arch, impl), footprint);
    if (e == nullptr || e->nsample == 0 || !(std::isnan(mean) || e->mean < mean)) continue;
    mean = e->mean;
    deviation = e->deviation;
  }
  return mean;
}

// Whether unmeasured candidate k lost clearly at the call most like this one where it was
// measured: among this interface's footprints where k and the measured best (@p best, whose
// time here is @p best_us) were both measured, the one where the best's time is nearest
// @p best_us, within a factor 2 (calls of about the same work, whatever makes their
// footprints differ: data sizes or context parameters). Lost clearly: another candidate's mean
// there, plus the moves this call's operands need for it, below k's (plus its moves) by more
// than kPlausibleDeviations of k's deviation. @p candidate and @p move: per variant (of @p n).
bool beaten_nearby(starpu_task* task, int k, int best, double best_us,
                   const VariantSelector& selector, const signed char* slots, int n,
                   const bool* candidate, const double* move) {
  starpu_perfmodel* model = task->cl->model;
  auto backend = [&](int j) -> const detail::Backend& {
    return selector.backend(static_cast<std::size_t>(j));
  };
  int ids[STARPU_NMAXWORKERS];
  if (!(best_us > 0) || detail::candidate_workers(backend(k), ids) == 0) return false;
  starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[0], STARPU_NMAX_SCHED_CTXS);
  const unsigned impl = static_cast<unsigned>(slots[k]);
  const starpu_perfmodel_per_arch* per_arch =
      starpu_perfmodel_get_model_per_arch(model, arch, impl);
  if (per_arch == nullptr) return false;
  const std::uint32_t here = starpu_task_footprint(model, task, arch, impl);
  // The footprints k was measured at, nearest first by the best's time there.
  double nearest = std::log(2.0);
  std::uint32_t found = 0;
  bool any = false;
  for (const starpu_perfmodel_history_list* l = per_arch->list; l != nullptr; l = l->next) {
    const starpu_perfmodel_history_entry* e = l->entry;
    if (e == nullptr || e->nsample == 0 || e->footprint == here) continue;
    double unused = 0;
    const double there =
        mean_at(model, backend(best), static_cast<unsigned>(slots[best]), e->footprint, unused);
    if (!(there > 0)) continue;
    const double distance = std::fabs(std::log(there / best_us));
    if (distance <= nearest) {
      nearest = distance;
      found = e->footprint;
      any = true;
    }
  }
  if (!any) return false;
  double deviation = 0;
  const double mean = mean_at(model, backend(k), impl, found, deviation);
  if (std::isnan(mean)) return false;
  for (int j = 0; j < n; ++j) {
    if (j == k || !candidate[j]) continue;
    double unused = 0;
    const double other = mean_at(model, backend(j), static_cast<unsigned>(slots[j]), found, unused);
    if (other + move[j] < mean + move[k] - kPlausibleDeviations * deviation) return true;
  }
  return false;
}

}  // namespace

void detail::forget_call_history() {
  {
    std::lock_guard<std::mutex> lock(g_history_mutex);
    g_history.clear();
  }
  detail::forget_history_index();
}

// Where variant k of @p backend may run, one worker per performance-model architecture and
// memory node: the largest combined worker for an OpenMP variant when the run has one, else
// the workers of its kind, CPU workers one per memory node (they share one architecture, so
// the others would only repeat the same model lookups on every call: one per core).
int detail::candidate_workers(const Backend& backend, int* ids) {
  if (backend.runs == detail::BackendRuns::Team) {
    const int largest = detail::largest_combined_worker();
    if (largest >= 0) {
      ids[0] = largest;
      return 1;
    }
  }
  const int all =
      static_cast<int>(starpu_worker_get_ids_by_type(backend.worker, ids, STARPU_NMAXWORKERS));
  if (backend.worker != STARPU_CPU_WORKER) return all;
  int kept = 0;
  for (int i = 0; i < all; ++i) {
    const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(ids[i]));
    bool seen = false;
    for (int j = 0; j < kept && !seen; ++j)
      seen = starpu_worker_get_memory_node(static_cast<unsigned>(ids[j])) == node;
    if (!seen) ids[kept++] = ids[i];
  }
  return kept;
}

void ModelledChoice::prepare_costs(const PlacementChoice& placement,
                                   const VariantSelector& selector, const signed char* slots) {
  selector_ = &selector;
  slots_ = slots;
  call_bytes_ = placement.total_bytes();
  detail::note_call_without_devices(selector.interface_name(), call_bytes_);
  const unsigned nodes = std::min<unsigned>(starpu_memory_nodes_get_count(), STARPU_MAXNODES);
  for (unsigned node = 0; node < nodes; ++node) node_us_[node] = placement.transfer_us(node);
}

int ModelledChoice::nvariants() const {
  return std::min(static_cast<int>(selector_->backends().size()), PlacementChoice::kMaxVariants);
}

int ModelledChoice::candidate_workers_of(int k, int* ids) const {
  using Runs = detail::BackendRuns;
  const detail::Backend& b = selector_->backend(static_cast<std::size_t>(k));
  if (!ok_[k] || slots_[k] < 0) return 0;
  if (b.runs == Runs::Team && detail::largest_combined_worker() < 0) {
    for (int j = 0, n = nvariants(); j < n; ++j)
      if (ok_[j] && selector_->backend(static_cast<std::size_t>(j)).runs == Runs::OneCore) return 0;
  }
  return detail::candidate_workers(b, ids);
}

double ModelledChoice::move_us(int id) const {
  const unsigned nodes = std::min<unsigned>(starpu_memory_nodes_get_count(), STARPU_MAXNODES);
  const unsigned node = id < static_cast<int>(starpu_worker_get_count())
                            ? starpu_worker_get_memory_node(static_cast<unsigned>(id))
                            : STARPU_MAIN_RAM;  // a combined worker: CPU cores
  return node < nodes ? node_us_[node] : 0;
}

// Per candidate variant of a call: whether it is one, whether its model predicts it on every
// worker it may run on, and its least expected time there (measured time plus moving the
// operands; the moves alone where unmeasured).
struct CalibratingChoice::Costs {
  bool candidate[PlacementChoice::kMaxVariants] = {};
  bool measured[PlacementChoice::kMaxVariants] = {};
  double cost[PlacementChoice::kMaxVariants] = {};
  // The standard deviation of the measurements behind cost (where measured).
  double spread[PlacementChoice::kMaxVariants] = {};
  // The operands' moves included in cost.
  double move[PlacementChoice::kMaxVariants] = {};
  int candidates = 0;
  int nmeasured = 0;
};

void CalibratingChoice::evaluate(starpu_task* task, Costs& c) const {
  int ids[STARPU_NMAXWORKERS];
  for (int k = 0, n = nvariants(); k < n; ++k) {
    const int count = candidate_workers_of(k, ids);
    if (count == 0) continue;
    bool all = true;
    double best = std::numeric_limits<double>::infinity(), best_spread = 0, best_move = 0;
    for (int i = 0; i < count; ++i) {
      starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[i], STARPU_NMAX_SCHED_CTXS);
      const unsigned impl = static_cast<unsigned>(slots_[k]);
      const double us = starpu_task_expected_length(task, arch, impl);
      all = all && !std::isnan(us);
      const double here = (std::isnan(us) ? 0 : us) + move_us(ids[i]);
      if (here < best) {
        best = here;
        best_spread = std::isnan(us) ? 0 : spread(task->cl->model, task, arch, impl);
        best_move = move_us(ids[i]);
      }
    }
    c.candidate[k] = true;
    c.measured[k] = all;
    c.cost[k] = best;
    c.spread[k] = best_spread;
    c.move[k] = best_move;
    ++c.candidates;
    c.nmeasured += all ? 1 : 0;
  }
}

int CalibratingChoice::choose(starpu_task* task) const {
  if (selector_ == nullptr || task->cl == nullptr || task->cl->model == nullptr) return -1;
  const std::uint32_t footprint = model_footprint(task);
  // Each call's outcome, for the devices of the program's next run (unused_devices.h).
  auto note = [&](bool best_on_host) {
    detail::note_call_outcome(selector_->interface_name(), call_bytes_, best_on_host);
  };
  if (bool best_on_host = false; settled(selector_, footprint, best_on_host)) {
    note(best_on_host);
    return -1;
  }
  using Runs = detail::BackendRuns;
  auto backend = [&](int k) -> const detail::Backend& {
    return selector_->backend(static_cast<std::size_t>(k));
  };
  auto on_host = [&](int k) { return k >= 0 && backend(k).worker == STARPU_CPU_WORKER; };
  const int n = nvariants();
  const bool parallel = detail::largest_combined_worker() >= 0;
  starpu_perfmodel* model = task->cl->model;
  Costs costs;
  evaluate(task, costs);
  const bool* candidate = costs.candidate;
  const bool* measured = costs.measured;
  const double* cost = costs.cost;
  const int candidates = costs.candidates, nmeasured = costs.nmeasured;
  int ids[STARPU_NMAXWORKERS];
  // Variant k's measurements (@p count: samples or runs_recorded) for this footprint on its
  // least measured worker architecture.
  auto fewest = [&](int k, auto count) {
    int workers[STARPU_NMAXWORKERS];
    int least = INT_MAX;
    for (int i = 0, n_workers = detail::candidate_workers(backend(k), workers); i < n_workers;
         ++i) {
      starpu_perfmodel_arch* arch =
          starpu_worker_get_perf_archtype(workers[i], STARPU_NMAX_SCHED_CTXS);
      least = std::min(least, count(model, task, arch, static_cast<unsigned>(slots_[k])));
    }
    return least;
  };
  if (candidates < 2) {  // nothing to choose: StarPU places it
    int only = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k]) only = k;
    note(on_host(only));
    return -1;
  }
  if (nmeasured == candidates) {
    // A measured variant that is not the best runs once more (once per session, in this
    // session or a later one: a program may call once per run) until it has kConfirmed
    // measurements, so that one slow first measurement (a cold cache, the first OpenMP team
    // of the process, a busy machine) does not rule it out for good: a measurement far from
    // the mean makes StarPU start the entry afresh (STARPU_HISTORY_MAX_ERROR), and the
    // variant is tried again as unmeasured. Past that, a loser whose measurements spread
    // widely enough that it may still be the best (its mean less kPlausibleDeviations of
    // their standard deviations below the best's cost) keeps running once per session while
    // it has fewer measurements than log2 of the best's: exploration that thins out as the
    // best's evidence grows (two measurements both slowed by a busy machine no longer rule a
    // variant out for good; a clearly slower one is never run again). Otherwise StarPU's
    // model decides, with the full codelet.
    int best = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && (best < 0 || cost[k] < cost[best])) best = k;
    note(on_host(best));
    const double evidence = std::log2(std::max(1, fewest(best, samples)));
    for (int k = 0; k < n; ++k) {
      if (!candidate[k] || k == best) continue;
      const int have = fewest(k, samples);
      const bool plausible = cost[k] - kPlausibleDeviations * costs.spread[k] < cost[best];
      if (have >= kConfirmed && !(plausible && have < evidence)) continue;
      if (confirm_now(selector_, footprint, k)) return k;
    }
    settle(selector_, footprint, on_host(best));
    return -1;
  }
  // Variant k runs now: an entry of its model that does not exist yet is made first (with no
  // measurement), so that StarPU keeps this run's measurement instead of dropping it as the
  // entry's first (one run per variant, not two, for a program that calls once per run).
  // StarPU 1.3 saves a worker architecture's implementations 0 to n - 1, n the number it has
  // entries for: an OpenMP variant in slot 1 measured alone on a combined worker would be
  // lost at shutdown, so the lower slots get an empty entry there too.
  auto runs = [&](int k) {
    const int count = detail::candidate_workers(backend(k), ids);
    for (int i = 0; i < count; ++i)
      make_entries(model, task, starpu_worker_get_perf_archtype(ids[i], STARPU_NMAX_SCHED_CTXS),
                   static_cast<unsigned>(slots_[k]));
    return k;
  };
  auto rank = [&](int k) { return tie_rank(backend(k).runs, parallel); };
  auto better = [&](int a, int b) { return better_than(cost, a, b, *selector_, parallel); };
  // Merge's rule (Specificity): the most specific candidates come first while unmeasured.
  bool specific_candidate = false;
  for (int k = 0; k < n; ++k)
    specific_candidate = specific_candidate || (candidate[k] && first_[k]);
  auto first = [&](int k) { return !specific_ || !specific_candidate || first_[k]; };
  if (nmeasured == 0) {  // nothing measured: the data stays where it is
    note(false);         // still learning: a device may be the best
    int best = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && first(k) && better(k, best)) best = k;
    // ... unless that runs a sequential variant on one core (no OpenMP variant on all of
    // them) while a device variant needs its operands moved for less than kCheapMoveUs.
    if (best >= 0 && backend(best).runs == Runs::OneCore) {
      int device = -1;
      for (int k = 0; k < n; ++k)
        if (candidate[k] && first(k) && rank(k) == 3 && cost[k] <= kCheapMoveUs &&
            (device < 0 || cost[k] < cost[device]))
          device = k;
      if (device >= 0) best = device;
    }
    return runs(best);
  }
  int best = -1;  // the measured best
  for (int k = 0; k < n; ++k)
    if (candidate[k] && measured[k] && better(k, best)) best = k;
  // A program whose calls change size or context (LU's shrinking steps) has a footprint per
  // call: a variant that lost clearly at the most similar call where it was measured (the
  // best's time there within a factor 2 of its time here) is not explored at this one, so
  // that exploring costs one call per doubling of the work, not one per footprint.
  auto beaten = [&](int k) {
    if (noted_beaten(selector_, footprint, k)) return true;
    if (!beaten_nearby(task, k, best, cost[best] - costs.move[best], *selector_, slots_, n,
                       candidate, costs.move))
      return false;
    note_beaten(selector_, footprint, k);
    return true;
  };
  // Whether a device variant may still be this call's best (what the call notes for the next
  // run's devices, unused_devices.cpp): one unmeasured whose moves alone cost less than the
  // measured best's time and that did not lose clearly nearby. Exploring between host
  // variants needs no device.
  bool device_open = false;
  for (int k = 0; k < n && !device_open; ++k)
    device_open = candidate[k] && !measured[k] && !on_host(k) && cost[k] < cost[best] && !beaten(k);
  // The unmeasured variants that did not run here yet, or whose last run here has been
  // measured, cheapest transfers first; one whose transfers alone cost more than the measured
  // best's time cannot win, and is left alone.
  bool tried[PlacementChoice::kMaxVariants] = {};
  for (;;) {
    int explore = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && !measured[k] && !tried[k] && cost[k] < cost[best] &&
          (explore < 0 || first(k) > first(explore) ||
           (first(k) == first(explore) && better(k, explore))))
        explore = k;
    if (explore < 0) {
      // The measured best: no unmeasured variant can beat it (their moves alone cost more, or
      // they lost clearly nearby), or those that may are waiting for their last run's time.
      note(!device_open && on_host(best));
      return best;
    }
    if (beaten(explore)) {
      tried[explore] = true;
      continue;
    }
    if (may_explore(selector_, footprint, explore, fewest(explore, runs_recorded))) {
      note(!device_open && on_host(best) && on_host(explore));
      runs(explore);
      // Its count once runs() made its entries: the next run waits for this one's measurement.
      note_explored(selector_, footprint, explore, fewest(explore, runs_recorded));
      return explore;
    }
    tried[explore] = true;
  }
}

int CalibratingChoice::here(starpu_task* task, int chosen) const {
#ifdef STARPU_SIMGRID
  (void)task, (void)chosen;
  return -1;  // simulated: only tasks have a (simulated) duration
#else
  if (selector_ == nullptr || task->cl == nullptr || task->cl->model == nullptr) return -1;
  if (starpu_task_nsubmitted() != 0) return -1;  // a task in flight: order with it
  using Runs = detail::BackendRuns;
  const bool parallel = detail::largest_combined_worker() >= 0;
  const unsigned cpus = starpu_cpu_worker_get_count();
  auto runs = [&](int k) { return selector_->backend(static_cast<std::size_t>(k)).runs; };
  // An OpenMP variant here gets a team of every CPU worker's core (OpenMpHere): as its task
  // would on the largest combined worker, or on the only CPU worker.
  auto host = [&](int k) {
    return (runs(k) == Runs::OneCore && cpus > 0) ||
           (runs(k) == Runs::Team && (parallel || cpus == 1));
  };
  if (chosen >= 0) return host(chosen) ? chosen : -1;
  Costs c;
  evaluate(task, c);
  const int n = nvariants();
  // StarPU decides (choose() returned -1): settled, or a single candidate. A candidate StarPU
  // no longer predicts (it flushed the entry: measurements far apart) is measured again: a
  // device one by StarPU (a task), a host one here.
  int k = -1;
  for (int j = 0; j < n; ++j) {
    if (!c.candidate[j] || c.measured[j]) continue;
    if (!host(j)) return -1;
    if (k < 0) k = j;
  }
  if (k >= 0) return k;
  for (int j = 0; j < n; ++j) {
    if (!c.candidate[j]) continue;
    if (better_than(c.cost, j, k, *selector_, parallel)) k = j;
  }
  return k >= 0 && host(k) ? k : -1;
#endif
}

void CalibratingChoice::record_here(starpu_task* task, int k, double us) const {
#ifndef STARPU_SIMGRID
  if (selector_ == nullptr || task->cl == nullptr || task->cl->model == nullptr || k < 0) return;
  int ids[STARPU_NMAXWORKERS];
  if (detail::candidate_workers(selector_->backend(static_cast<std::size_t>(k)), ids) == 0) return;
  starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[0], STARPU_NMAX_SCHED_CTXS);
  const unsigned impl = static_cast<unsigned>(slots_[k]);
  make_entries(task->cl->model, task, arch, impl);
  starpu_perfmodel_update_history(task->cl->model, task, arch, 0, impl, us);
#else
  (void)task, (void)k, (void)us;
#endif
}

HereRun::HereRun(starpu_task* task, const CalibratingChoice& choice, int variant) noexcept
    : task_(task),
      choice_(choice),
      variant_(variant),
      exceptions_(std::uncaught_exceptions()),
      start_us_(starpu_timing_now()) {}

HereRun::~HereRun() {
  if (std::uncaught_exceptions() == exceptions_)
    choice_.record_here(task_, variant_, starpu_timing_now() - start_us_);
  starpu_task_destroy(task_);  // never submitted; frees its argument block too
}

}  // namespace peppher
