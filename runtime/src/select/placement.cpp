// Placement-aware static dispatch (see placement.h): the memory nodes of each backend's
// workers, the expected transfer time of a call's operands to each memory node from
// StarPU's bus model, and the choice of variant. The choice while a model is still learning
// is in calibrating_choice.cpp.
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

#include "peppher/detail/backends.h"
#include "peppher/error.h"
#include "select/calibrating_choice.h"
#include "select/regression_choice.h"
#include "select/reuse_moves.h"

namespace peppher {
namespace {

std::atomic<bool> g_placement{true};
// The memory nodes of each backend's workers (detail::kBackends order), as bit sets (set by
// init() through apply_placement_environment(): workers do not change during a session);
// before that, the host's for the backends on CPU workers.
std::atomic<std::uint32_t> g_nodes[detail::kBackendCount];
// The largest combined worker (-1: none; -2: not looked up yet this session).
std::atomic<int> g_largest_combined{-2};

bool init_nodes() noexcept {
  for (std::size_t i = 0; i < detail::kBackendCount; ++i)
    g_nodes[i].store(detail::kBackends[i].where == STARPU_CPU ? 1u << STARPU_MAIN_RAM : 0u);
  return true;
}
[[maybe_unused]] const bool kNodesInitialised = init_nodes();

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
  std::uint32_t nodes = 0;
  for (std::size_t i = 0; i < detail::kBackendCount; ++i)
    if ((where & detail::kBackends[i].where) != 0)
      nodes |= g_nodes[i].load(std::memory_order_relaxed);
  return nodes;
}

}  // namespace

bool placement_enabled() noexcept {
  return g_placement.load(std::memory_order_relaxed);
}

void set_placement(bool on) noexcept {
  g_placement.store(on, std::memory_order_relaxed);
}

void note_worker_layout() noexcept {
  for (std::size_t i = 0; i < detail::kBackendCount; ++i)
    g_nodes[i].store(nodes_of(detail::kBackends[i].worker));
  g_largest_combined.store(find_largest_combined());
  detail::note_reuse_layout();
}

void apply_placement_environment() {
  detail::forget_call_history();
  detail::forget_regression_runs();
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
    for (const Backend& b : kBackends)
      for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i)
        if ((cl.*b.funcs)[i] != nullptr) where |= b.where;
  }
  return where;
}

int memory_node_of(const starpu_codelet& cl) noexcept {
  const std::uint32_t where = codelet_where(cl);
  // One kind of worker only: a codelet over CPU and device variants lets StarPU choose.
  if (backend_of_where(where) == nullptr) return -1;
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

double handle_bring_us(starpu_data_handle_t handle, unsigned node, std::size_t bytes) noexcept {
  std::uint32_t valid = 0;
  const unsigned nodes = std::min(starpu_memory_nodes_get_count(), 32u);
  for (unsigned n = 0; n < nodes; ++n) {
    int allocated = 0, is_valid = 0, requested = 0;
    starpu_data_query_status(handle, static_cast<int>(n), &allocated, &is_valid, &requested);
    if (n == node && (is_valid != 0 || requested != 0)) return 0;  // there, or on its way
    if (is_valid != 0) valid |= 1u << n;
  }
  // No copy valid at this instant: a task's write is moving the only one (StarPU marks every
  // node invalid, then the writer's node the owner). Charged as if it were at home.
  return bring_us(valid != 0 ? valid : 1u << STARPU_MAIN_RAM, node, bytes);
}

starpu_worker_archtype worker_kind(const std::string& backend) noexcept {
  return backend_named(backend.c_str()).worker;
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
  for (const Op& op : ops_) {
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
        total += detail::handle_bring_us(h, node, op.bytes);
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
    const detail::Backend& backend = selector.backend(static_cast<std::size_t>(k));
    if (backend.runs == detail::BackendRuns::Team && !parallel) {
      if (openmp < 0) openmp = k;
      continue;
    }
    if (!placed) return k;  // the ranking's order: per call
    // A kind of worker on several memory nodes (two devices): the nearest one.
    const std::uint32_t nodes = nodes_of_where(backend.where);
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

namespace {

// The order of the no-model choice: OpenMP variants, then sequential CPU ones, then devices'
// (selector order within each). Returns how many it wrote.
int no_model_ranking(const VariantSelector& selector, signed char* ranking) {
  int count = 0;
  const int n =
      std::min(static_cast<int>(selector.backends().size()), PlacementChoice::kMaxVariants);
  using Runs = detail::BackendRuns;
  for (const Runs pass : {Runs::Team, Runs::OneCore, Runs::Device}) {
    for (int k = 0; k < n; ++k)
      if (selector.backend(static_cast<std::size_t>(k)).runs == pass)
        ranking[count++] = static_cast<signed char>(k);
  }
  return count;
}

}  // namespace

int PlacementChoice::pick_without_model(const VariantSelector& selector,
                                        const bool* accepted) const {
  // Only where an OpenMP variant can have all CPU cores; elsewhere StarPU chooses, as before.
  if (!detail::parallel_tasks_possible()) return -1;
  // No times: every variant costs nothing but its transfers, and pick() keeps the first of
  // equal costs, so the ranking says which side wins where the data already is.
  signed char ranking[kMaxVariants];
  const double us[kMaxVariants] = {};
  const int count = no_model_ranking(selector, ranking);
  return pick(ranking, count, us, selector, accepted);
}

bool detail::keep_most_specific(const Specificity& specificity, int count,
                                bool* accepted) noexcept {
  count = std::min(count, PlacementChoice::kMaxVariants);
  std::uint64_t general = 0;  // the variants an accepted one specializes
  for (int k = 0; k < count; ++k)
    if (accepted[k]) general |= specificity.specializes[k];
  bool dropped = false;
  int top = INT_MIN;
  for (int k = 0; k < count; ++k) {
    if (accepted[k] && ((general >> k) & 1U) != 0) {
      accepted[k] = false;
      dropped = true;
    }
    if (accepted[k]) top = std::max(top, specificity.priority[k]);
  }
  for (int k = 0; k < count; ++k) {
    if (accepted[k] && specificity.priority[k] < top) {
      accepted[k] = false;
      dropped = true;
    }
  }
  return dropped;
}

int PlacementChoice::pick_most_specific(const VariantSelector& selector,
                                        const Specificity& specificity, bool* accepted,
                                        bool no_model_choice) const {
  const int n = std::min(static_cast<int>(selector.variants().size()), kMaxVariants);
  if (!detail::keep_most_specific(specificity, n, accepted))
    return no_model_choice ? pick_without_model(selector, accepted) : -1;
  int left = 0, only = -1;
  for (int k = 0; k < n; ++k) {
    if (accepted[k]) {
      ++left;
      only = k;
    }
  }
  if (left <= 1) return only;  // the most specific, on whatever worker of its kind
  signed char ranking[kMaxVariants];
  const double us[kMaxVariants] = {};
  const int count = no_model_ranking(selector, ranking);
  return pick(ranking, count, us, selector, accepted);
}

}  // namespace peppher
