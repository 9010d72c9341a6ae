// Placement-aware static dispatch (see placement.h): the expected transfer time of a call's
// operands to each memory node from StarPU's bus model, and the choice of variant.
#include "peppher/placement.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "devices/host_opencl.h"
#include "peppher/error.h"

namespace peppher {
namespace {

std::atomic<bool> g_placement{true};
// The memory nodes of this session's CPU, CUDA and OpenCL workers, as bit sets (set by
// init() through apply_placement_environment(): workers do not change during a session).
std::atomic<std::uint32_t> g_cpu_nodes{1u << STARPU_MAIN_RAM}, g_cuda_nodes{0}, g_opencl_nodes{0};
// The largest combined worker (-1: none; -2: not looked up yet this session).
std::atomic<int> g_largest_combined{-2};

// Forgets what the learning choice saw of each call in an earlier session (below).
void forget_call_history();

int find_largest_combined() noexcept {
  const int base = static_cast<int>(starpu_worker_get_count());
  const int n = static_cast<int>(starpu_combined_worker_get_count());
  int best = -1, best_size = 0;
  for (int id = base; id < base + n; ++id) {
    int size = 0;
    int* members = nullptr;
    if (starpu_combined_worker_get_description(id, &size, &members) == 0 && size > best_size) {
      best = id;
      best_size = size;
    }
  }
  return best;
}

// The memory nodes of the workers of @p type, as a bit set.
std::uint32_t nodes_of(starpu_worker_archtype type) noexcept {
  int ids[STARPU_NMAXWORKERS];
  const unsigned n = starpu_worker_get_ids_by_type(type, ids, STARPU_NMAXWORKERS);
  std::uint32_t nodes = 0;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(ids[i]));
    if (node < 32) nodes |= 1u << node;
  }
  return nodes;
}

std::uint32_t nodes_of_where(std::uint32_t where) noexcept {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  std::uint32_t nodes = 0;
  if ((where & STARPU_CPU) != 0) nodes |= g_cpu_nodes.load(kRelaxed);
  if ((where & STARPU_CUDA) != 0) nodes |= g_cuda_nodes.load(kRelaxed);
  if ((where & STARPU_OPENCL) != 0) nodes |= g_opencl_nodes.load(kRelaxed);
  return nodes;
}

std::uint32_t where_of_backend(const std::string& backend) noexcept {
  if (backend == "CUDA") return STARPU_CUDA;
  if (backend == "OPENCL") return STARPU_OPENCL;
  return STARPU_CPU;  // CPU, OPENMP
}

}  // namespace

bool placement_enabled() noexcept {
  return g_placement.load(std::memory_order_relaxed);
}

void set_placement(bool on) noexcept {
  g_placement.store(on, std::memory_order_relaxed);
}

void apply_placement_environment() {
  forget_call_history();
  g_cpu_nodes.store(nodes_of(STARPU_CPU_WORKER));
  g_cuda_nodes.store(nodes_of(STARPU_CUDA_WORKER));
  g_opencl_nodes.store(nodes_of(STARPU_OPENCL_WORKER));
  g_largest_combined.store(find_largest_combined());
  const char* env = std::getenv("PEPPHER_PLACEMENT");
  if (env == nullptr || *env == '\0') {
    set_placement(true);
    return;
  }
  const std::string v = env;
  if (v == "on" || v == "1") {
    set_placement(true);
  } else if (v == "off" || v == "0") {
    set_placement(false);
  } else {
    throw Error("PEPPHER_PLACEMENT: '" + v + "' is neither on (1) nor off (0)");
  }
}

namespace detail {

int memory_node_of(std::uint32_t where) noexcept {
  const std::uint32_t nodes = nodes_of_where(where);
  if (nodes == 0 || (nodes & (nodes - 1)) != 0) return -1;  // none, or several
  return __builtin_ctz(nodes);
}

std::uint32_t codelet_where(const starpu_codelet& cl) noexcept {
  std::uint32_t where = cl.where;
  if (where == 0) {  // StarPU derives it from the implementations
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) {
      if (cl.cpu_funcs[i] != nullptr) where |= STARPU_CPU;
      if (cl.cuda_funcs[i] != nullptr) where |= STARPU_CUDA;
      if (cl.opencl_funcs[i] != nullptr) where |= STARPU_OPENCL;
    }
  }
  return where;
}

int memory_node_of(const starpu_codelet& cl) noexcept {
  const std::uint32_t where = codelet_where(cl);
  // One kind of worker only: a codelet over CPU and device variants lets StarPU choose.
  if (where != STARPU_CPU && where != STARPU_CUDA && where != STARPU_OPENCL) return -1;
  return memory_node_of(where);
}

bool parallel_tasks_possible() noexcept {
  return starpu_combined_worker_get_count() > 0;
}

void apply_calibration_defaults(starpu_conf& conf) {
  if (std::getenv("STARPU_CALIBRATE") == nullptr) conf.calibrate = 1;
  setenv("STARPU_CALIBRATE_MINIMUM", "1", 0);  // read by starpu_init()
}

int largest_combined_worker() noexcept {
  int id = g_largest_combined.load(std::memory_order_relaxed);
  if (id == -2) {  // StarPU started without init(): look it up once
    id = find_largest_combined();
    g_largest_combined.store(id, std::memory_order_relaxed);
  }
  return id;
}

bool openmp_may_run(unsigned workerid, bool sequential_accepts) noexcept {
  const int largest = largest_combined_worker();
  if (largest >= 0) return workerid == static_cast<unsigned>(largest);
  return !sequential_accepts;
}

double bring_us(std::uint32_t valid, unsigned node, std::size_t bytes) noexcept {
  if (node < 32 && (valid & (1u << node)) != 0) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (unsigned src = 0; src < 32; ++src)
    if ((valid & (1u << src)) != 0)
      best = std::min(best, detail::transfer_predict_us(src, node, bytes));
  return std::isfinite(best) ? best : 0;
}

starpu_worker_archtype worker_kind(const std::string& backend) noexcept {
  if (backend == "CUDA") return STARPU_CUDA_WORKER;
  if (backend == "OPENCL") return STARPU_OPENCL_WORKER;
  return STARPU_CPU_WORKER;  // CPU, OPENMP
}

void warn_sequential_openmp(const char* iface, const char* variant) {
  static std::mutex m;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(m);
  if (!warned.insert(iface).second) return;
  std::fprintf(stderr,
               "peppher: warning: %s: static dispatch runs the OpenMP variant '%s' on one "
               "thread: no other variant accepts the call, and this run has no combined "
               "workers (use a parallel-aware scheduler, STARPU_SCHED=peager or pheft, with "
               "several CPU workers)\n",
               iface, variant);
}

}  // namespace detail

double PlacementChoice::transfer_us(unsigned node) const {
  double total = 0;
  for (int i = 0; i < n_; ++i) {
    const Op& op = ops_[i];
    if (op.bytes == 0) continue;
    if (op.storage == nullptr) {  // raw: at home before the call, brought back after it
      if (node == STARPU_MAIN_RAM) continue;
      if ((op.mode & STARPU_R) != 0)
        total += detail::transfer_predict_us(STARPU_MAIN_RAM, node, op.bytes);
      if ((op.mode & STARPU_W) != 0)
        total += detail::transfer_predict_us(node, STARPU_MAIN_RAM, op.bytes);
      continue;
    }
    // Written here: it will have to reach its next reader, expected where the last one ran.
    const int reader = op.storage->last_reader();
    if ((op.mode & STARPU_W) != 0 && reader >= 0 && static_cast<unsigned>(reader) != node)
      total += detail::transfer_predict_us(node, static_cast<unsigned>(reader), op.bytes);
    if ((op.mode & STARPU_R) == 0) continue;  // written only: nothing to bring
    std::uint32_t valid = op.storage->placement();
    if (valid == 0) {  // unknown: where StarPU has it now (or is bringing it)
      if (starpu_data_handle_t h = op.storage->registered_handle()) {
        total += starpu_data_expected_transfer_time(h, node, op.mode);
        continue;
      }
      valid = 1u << STARPU_MAIN_RAM;  // never registered: at home
    }
    total += detail::bring_us(valid, node, op.bytes);
  }
  return total;
}

int PlacementChoice::pick(const signed char* ranking, int count, const double* us,
                          const VariantSelector& selector, const bool* accepted) const {
  const bool placed = placement_enabled();
  const bool parallel = detail::parallel_tasks_possible();
  int best = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  int openmp = -1;  // the fastest accepting OpenMP variant, when OpenMP tasks run on one core
  for (int i = 0; i < count; ++i) {
    const int k = ranking[i];
    if (k < 0 || k >= kMaxVariants || !accepted[k]) continue;
    const std::string& backend = selector.backends()[static_cast<std::size_t>(k)];
    if (backend == "OPENMP" && !parallel) {
      if (openmp < 0) openmp = k;
      continue;
    }
    if (!placed) return k;  // the ranking's order: per call
    // A kind of worker on several memory nodes (two devices): the nearest one.
    const std::uint32_t nodes = nodes_of_where(where_of_backend(backend));
    double move = std::numeric_limits<double>::infinity();
    for (unsigned node = 0; node < 32; ++node) {
      if ((nodes & (1u << node)) != 0) move = std::min(move, transfer_us(node));
    }
    if (!std::isfinite(move)) move = 0;
    const double cost = (std::isnan(us[k]) ? 0 : us[k]) + move;
    if (best < 0 || cost < best_cost) {
      best = k;
      best_cost = cost;
    }
  }
  if (best < 0 && openmp >= 0) {
    detail::warn_sequential_openmp(selector.interface_name().c_str(),
                                   selector.variants()[static_cast<std::size_t>(openmp)].c_str());
    return openmp;
  }
  return best;
}

int PlacementChoice::pick_without_model(const VariantSelector& selector,
                                        const bool* accepted) const {
  // Only where an OpenMP variant can have all CPU cores; elsewhere StarPU chooses, as before.
  if (!detail::parallel_tasks_possible()) return -1;
  // No times: every variant costs nothing but its transfers, and pick() keeps the first of
  // equal costs, so the ranking says which side wins where the data already is.
  signed char ranking[kMaxVariants];
  const double us[kMaxVariants] = {};
  int count = 0;
  const std::vector<std::string>& backends = selector.backends();
  const int n = std::min(static_cast<int>(backends.size()), kMaxVariants);
  for (const char* pass : {"OPENMP", "CPU", ""}) {
    for (int k = 0; k < n; ++k) {
      const std::string& b = backends[static_cast<std::size_t>(k)];
      const bool cpu_side = b == "OPENMP" || b == "CPU";
      if (*pass != '\0' ? b == pass : !cpu_side) ranking[count++] = static_cast<signed char>(k);
    }
  }
  return pick(ranking, count, us, selector, accepted);
}

namespace {

// Measurements after which a measured variant that is not the best is no longer run again.
constexpr int kConfirmed = 2;

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
};
std::mutex g_history_mutex;
std::map<std::pair<const VariantSelector*, std::uint32_t>, CallHistory> g_history;

void forget_call_history() {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  g_history.clear();
}

bool settled(const VariantSelector* selector, std::uint32_t footprint) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  const auto it = g_history.find({selector, footprint});
  return it != g_history.end() && it->second.settled;
}

// Whether this session called the interface with this footprint before (notes that it has).
bool seen_before(const VariantSelector* selector, std::uint32_t footprint) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  return !g_history.try_emplace({selector, footprint}).second;
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

void settle(const VariantSelector* selector, std::uint32_t footprint) {
  std::lock_guard<std::mutex> lock(g_history_mutex);
  g_history[{selector, footprint}].settled = true;
}

// Where variant k of kind @p backend may run: the largest combined worker for an OpenMP
// variant when the run has one, else every worker of its kind.
int candidate_workers(const std::string& backend, int* ids) {
  if (backend == "OPENMP") {
    const int largest = detail::largest_combined_worker();
    if (largest >= 0) {
      ids[0] = largest;
      return 1;
    }
  }
  return static_cast<int>(
      starpu_worker_get_ids_by_type(detail::worker_kind(backend), ids, STARPU_NMAXWORKERS));
}

// @p model's history entry for @p task's footprint on @p arch, implementation @p impl, or null.
const starpu_perfmodel_history_entry* history_entry(starpu_perfmodel* model, starpu_task* task,
                                                    starpu_perfmodel_arch* arch, unsigned impl) {
  const starpu_perfmodel_per_arch* per_arch =
      starpu_perfmodel_get_model_per_arch(model, arch, impl);
  if (per_arch == nullptr) return nullptr;
  const std::uint32_t footprint = starpu_task_footprint(model, task, arch, impl);
  for (const starpu_perfmodel_history_list* l = per_arch->list; l != nullptr; l = l->next)
    if (l->entry != nullptr && l->entry->footprint == footprint) return l->entry;
  return nullptr;
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

unsigned node_of_worker(int id) {
  if (id < static_cast<int>(starpu_worker_get_count()))
    return starpu_worker_get_memory_node(static_cast<unsigned>(id));
  return STARPU_MAIN_RAM;  // a combined worker: CPU cores
}

}  // namespace

void CalibratingChoice::prepare_costs(const PlacementChoice& placement,
                                      const VariantSelector& selector, const signed char* slots) {
  selector_ = &selector;
  slots_ = slots;
  const unsigned nodes = std::min<unsigned>(starpu_memory_nodes_get_count(), STARPU_MAXNODES);
  for (unsigned node = 0; node < nodes; ++node) node_us_[node] = placement.transfer_us(node);
}

int CalibratingChoice::choose(starpu_task* task) const {
  if (selector_ == nullptr || task->cl == nullptr || task->cl->model == nullptr) return -1;
  const std::uint32_t footprint = starpu_task_data_footprint(task);
  if (settled(selector_, footprint)) return -1;
  const std::vector<std::string>& backends = selector_->backends();
  const int n = std::min(static_cast<int>(backends.size()), PlacementChoice::kMaxVariants);
  const bool parallel = detail::largest_combined_worker() >= 0;
  bool sequential = false;  // a sequential CPU variant accepts the call
  for (int k = 0; k < n; ++k) sequential = sequential || (ok_[k] && backends[k] == "CPU");
  // Per candidate variant: measured on every worker it may run on, and the least expected
  // time (measured time plus moving the operands there; transfers alone where unmeasured).
  starpu_perfmodel* model = task->cl->model;
  bool candidate[PlacementChoice::kMaxVariants] = {};
  bool measured[PlacementChoice::kMaxVariants] = {};
  double cost[PlacementChoice::kMaxVariants] = {};
  int candidates = 0, nmeasured = 0;
  const bool again = seen_before(selector_, footprint);
  int ids[STARPU_NMAXWORKERS];
  // Variant k's measurements (@p count: samples or runs_recorded) for this footprint on its
  // least measured worker architecture.
  auto fewest = [&](int k, auto count) {
    int workers[STARPU_NMAXWORKERS];
    int least = INT_MAX;
    for (int i = 0, n_workers = candidate_workers(backends[k], workers); i < n_workers; ++i) {
      starpu_perfmodel_arch* arch =
          starpu_worker_get_perf_archtype(workers[i], STARPU_NMAX_SCHED_CTXS);
      least = std::min(least, count(model, task, arch, static_cast<unsigned>(slots_[k])));
    }
    return least;
  };
  const unsigned nodes = std::min<unsigned>(starpu_memory_nodes_get_count(), STARPU_MAXNODES);
  for (int k = 0; k < n; ++k) {
    const std::string& backend = backends[k];
    // An OpenMP variant with no combined worker gets one thread: a sequential one that
    // accepts the call is the CPU's candidate (its can_execute says the same).
    if (!ok_[k] || slots_[k] < 0 || (backend == "OPENMP" && !parallel && sequential)) continue;
    const int count = candidate_workers(backend, ids);
    if (count == 0) continue;
    bool all = true;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
      starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[i], STARPU_NMAX_SCHED_CTXS);
      const double us = starpu_task_expected_length(task, arch, static_cast<unsigned>(slots_[k]));
      const unsigned node = node_of_worker(ids[i]);
      const double move = node < nodes ? node_us_[node] : 0;
      all = all && !std::isnan(us);
      best = std::min(best, (std::isnan(us) ? 0 : us) + move);
    }
    candidate[k] = true;
    measured[k] = all;
    cost[k] = best;
    ++candidates;
    nmeasured += all ? 1 : 0;
  }
  if (candidates < 2) return -1;  // nothing to choose: StarPU places it
  if (nmeasured == candidates) {
    // A program that calls again: a measured variant that is not the best runs once more per
    // session until it has kConfirmed measurements, so that one slow first measurement (a
    // cold cache, the first OpenMP team of the process, a busy machine) does not rule it out
    // for good: a measurement far from the mean makes StarPU start the entry afresh
    // (STARPU_HISTORY_MAX_ERROR), and the variant is tried again as unmeasured. Otherwise
    // StarPU's model decides, with the full codelet.
    if (!again) return -1;
    int best = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && (best < 0 || cost[k] < cost[best])) best = k;
    for (int k = 0; k < n; ++k) {
      if (!candidate[k] || k == best || fewest(k, samples) >= kConfirmed) continue;
      if (confirm_now(selector_, footprint, k)) return k;
    }
    settle(selector_, footprint);
    return -1;
  }
  // Variant k runs now: an entry of its model that does not exist yet is made first (with no
  // measurement), so that StarPU keeps this run's measurement instead of dropping it as the
  // entry's first (one run per variant, not two, for a program that calls once per run).
  // StarPU 1.3 saves a worker architecture's implementations 0 to n - 1, n the number it has
  // entries for: an OpenMP variant in slot 1 measured alone on a combined worker would be
  // lost at shutdown, so the lower slots get an empty entry there too.
  auto runs = [&](int k) {
    const int count = candidate_workers(backends[k], ids);
    const unsigned impl = static_cast<unsigned>(slots_[k]);
    for (int i = 0; i < count; ++i) {
      starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(ids[i], STARPU_NMAX_SCHED_CTXS);
      if (!std::isnan(starpu_task_expected_length(task, arch, impl))) continue;
      for (unsigned j = 0; j <= impl; ++j)
        if (samples(model, task, arch, j) < 0)
          starpu_perfmodel_update_history(model, task, arch, 0, j, 0.0);  // value unused
    }
    return k;
  };
  // The order of equal costs: OpenMP on all cores, then sequential CPU, then devices.
  auto rank = [&](int k) {
    const std::string& b = backends[k];
    return b == "OPENMP" ? (parallel ? 0 : 2) : b == "CPU" ? 1 : 3;
  };
  auto better = [&](int a, int b) {  // a strictly better than b (b < 0: none yet)
    return b < 0 || cost[a] < cost[b] || (cost[a] == cost[b] && rank(a) < rank(b));
  };
  if (nmeasured == 0) {  // nothing measured: the data stays where it is
    int best = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && better(k, best)) best = k;
    // ... unless that runs a sequential variant on one core (no OpenMP variant on all of
    // them) while a device variant needs its operands moved for less than kCheapMoveUs.
    if (best >= 0 && backends[best] == "CPU") {
      int device = -1;
      for (int k = 0; k < n; ++k)
        if (candidate[k] && rank(k) == 3 && cost[k] <= kCheapMoveUs &&
            (device < 0 || cost[k] < cost[device]))
          device = k;
      if (device >= 0) best = device;
    }
    return runs(best);
  }
  int best = -1;  // the measured best
  for (int k = 0; k < n; ++k)
    if (candidate[k] && measured[k] && better(k, best)) best = k;
  // The unmeasured variants that did not run here yet, or whose last run here has been
  // measured, cheapest transfers first; one whose transfers alone cost more than the measured
  // best's time cannot win, and is left alone.
  bool tried[PlacementChoice::kMaxVariants] = {};
  for (;;) {
    int explore = -1;
    for (int k = 0; k < n; ++k)
      if (candidate[k] && !measured[k] && !tried[k] && cost[k] < cost[best] && better(k, explore))
        explore = k;
    if (explore < 0) return best;
    if (may_explore(selector_, footprint, explore, fewest(explore, runs_recorded))) {
      runs(explore);
      // Its count once runs() made its entries: the next run waits for this one's measurement.
      note_explored(selector_, footprint, explore, fewest(explore, runs_recorded));
      return explore;
    }
    tried[explore] = true;
  }
}

}  // namespace peppher
