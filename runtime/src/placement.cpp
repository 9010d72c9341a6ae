// Placement-aware static dispatch (see placement.h): the expected transfer time of a call's
// operands to each memory node from StarPU's bus model, and the choice of variant.
#include "peppher/placement.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "peppher/error.h"

namespace peppher {
namespace {

std::atomic<bool> g_placement{true};
// The memory nodes of this session's CPU, CUDA and OpenCL workers, as bit sets (set by
// init() through apply_placement_environment(): workers do not change during a session).
std::atomic<std::uint32_t> g_cpu_nodes{1u << STARPU_MAIN_RAM}, g_cuda_nodes{0}, g_opencl_nodes{0};

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
  g_cpu_nodes.store(nodes_of(STARPU_CPU_WORKER));
  g_cuda_nodes.store(nodes_of(STARPU_CUDA_WORKER));
  g_opencl_nodes.store(nodes_of(STARPU_OPENCL_WORKER));
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

int memory_node_of(const starpu_codelet& cl) noexcept {
  std::uint32_t where = cl.where;
  if (where == 0) {  // StarPU derives it from the implementations
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) {
      if (cl.cpu_funcs[i] != nullptr) where |= STARPU_CPU;
      if (cl.cuda_funcs[i] != nullptr) where |= STARPU_CUDA;
      if (cl.opencl_funcs[i] != nullptr) where |= STARPU_OPENCL;
    }
  }
  // One kind of worker only: a codelet over CPU and device variants lets StarPU choose.
  if (where != STARPU_CPU && where != STARPU_CUDA && where != STARPU_OPENCL) return -1;
  return memory_node_of(where);
}

bool parallel_tasks_possible() noexcept {
  return starpu_combined_worker_get_count() > 0;
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
  const std::uint32_t here = node < 32 ? 1u << node : 0u;
  double total = 0;
  for (int i = 0; i < n_; ++i) {
    const Op& op = ops_[i];
    if (op.bytes == 0) continue;
    if (op.storage == nullptr) {  // raw: at home before the call, brought back after it
      if (node == STARPU_MAIN_RAM) continue;
      if ((op.mode & STARPU_R) != 0)
        total += starpu_transfer_predict(STARPU_MAIN_RAM, node, op.bytes);
      if ((op.mode & STARPU_W) != 0)
        total += starpu_transfer_predict(node, STARPU_MAIN_RAM, op.bytes);
      continue;
    }
    // Written here: it will have to reach its next reader, expected where the last one ran.
    const int reader = op.storage->last_reader();
    if ((op.mode & STARPU_W) != 0 && reader >= 0 && static_cast<unsigned>(reader) != node)
      total += starpu_transfer_predict(node, static_cast<unsigned>(reader), op.bytes);
    if ((op.mode & STARPU_R) == 0) continue;  // written only: nothing to bring
    std::uint32_t valid = op.storage->placement();
    if (valid == 0) {  // unknown: where StarPU has it now (or is bringing it)
      if (starpu_data_handle_t h = op.storage->registered_handle()) {
        total += starpu_data_expected_transfer_time(h, node, op.mode);
        continue;
      }
      valid = 1u << STARPU_MAIN_RAM;  // never registered: at home
    }
    if ((valid & here) != 0) continue;
    double best = std::numeric_limits<double>::infinity();
    for (unsigned src = 0; src < 32; ++src) {
      if ((valid & (1u << src)) != 0)
        best = std::min(best, starpu_transfer_predict(src, node, op.bytes));
    }
    if (std::isfinite(best)) total += best;
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

}  // namespace peppher
