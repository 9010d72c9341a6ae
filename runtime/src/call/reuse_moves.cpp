// Moves paid for by reuse, for a call the scheduler places (docs/SELECTION.md, "Data that
// calls keep reading"): Call::amortise_moves asks the call's model for each memory node and
// the bus model for each read container, lets select/reuse_moves.h's rule credit the
// containers, and fetches the data to the node the rule names, so that the scheduler, which
// weighs each task alone, finds it there.
#include "select/reuse_moves.h"

#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "call/call_parts.h"
#include "peppher/placement.h"

namespace peppher::detail {
namespace {

// One worker per kind of worker and memory node (and the largest combined worker, on the
// host's node): whose predictions stand for that node's. Set by note_reuse_layout() at
// init, before any call.
constexpr int kMaxGroups = 64;
std::atomic<int> g_groups{0};
std::atomic<int> g_group_worker[kMaxGroups];
std::atomic<int> g_group_node[kMaxGroups];
// The scheduler places tasks by their models and transfers (dm*, heft, pheft): only then
// does a fetch change where a task goes.
std::atomic<bool> g_model_scheduler{false};

bool places_by_models(const char* policy) {
  return policy != nullptr &&
         (std::strncmp(policy, "dm", 2) == 0 || std::strstr(policy, "heft") != nullptr);
}

bool can_execute(int worker, starpu_task* task, unsigned nimpl) {
  return worker < static_cast<int>(starpu_worker_get_count())
             ? starpu_worker_can_execute_task(static_cast<unsigned>(worker), task, nimpl) != 0
             : starpu_combined_worker_can_execute_task(static_cast<unsigned>(worker), task,
                                                       nimpl) != 0;
}

}  // namespace

void note_reuse_layout() noexcept {
  int n = 0;
  const unsigned workers = starpu_worker_get_count();
  for (unsigned w = 0; w < workers && n < kMaxGroups; ++w) {
    const int node = static_cast<int>(starpu_worker_get_memory_node(w));
    const starpu_worker_archtype type = starpu_worker_get_type(static_cast<int>(w));
    bool seen = false;
    for (int g = 0; g < n && !seen; ++g)
      seen = g_group_node[g].load(std::memory_order_relaxed) == node &&
             starpu_worker_get_type(g_group_worker[g].load(std::memory_order_relaxed)) == type;
    if (seen) continue;
    g_group_worker[n].store(static_cast<int>(w), std::memory_order_relaxed);
    g_group_node[n].store(node, std::memory_order_relaxed);
    ++n;
  }
  const int combined = largest_combined_worker();
  if (combined >= 0 && n < kMaxGroups) {
    g_group_worker[n].store(combined, std::memory_order_relaxed);
    g_group_node[n].store(STARPU_MAIN_RAM, std::memory_order_relaxed);
    ++n;
  }
  g_groups.store(n, std::memory_order_release);
  // Context 0: StarPU's global one, which every task of the runtime goes to.
  const starpu_sched_policy* policy = starpu_sched_ctx_get_sched_policy(0);
  g_model_scheduler.store(policy != nullptr && places_by_models(policy->policy_name),
                          std::memory_order_relaxed);
}

bool Call::amortise_moves(starpu_task* task) {
  if (codelet_->model == nullptr || !g_model_scheduler.load(std::memory_order_relaxed) ||
      !placement_enabled())  // PEPPHER_PLACEMENT=off: each task as the scheduler weighs it
    return false;
  const int groups = g_groups.load(std::memory_order_acquire);
  if (groups < 2) return false;
  // The containers the call reads, whole, each once.
  ReuseOperand reads[STARPU_NMAXBUFS];
  starpu_data_handle_t handles[STARPU_NMAXBUFS];
  std::size_t count = 0;
  for (const Operand& op : ops_) {
    if (op.kind != OperandKind::Container || op.handle == nullptr || count == STARPU_NMAXBUFS ||
        (STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_R) == 0)
      continue;
    bool seen = false;
    for (std::size_t i = 0; i < count && !seen; ++i) seen = handles[i] == op.handle;
    if (seen) continue;
    handles[count] = op.handle;
    reads[count].credit = &op.container->reuse_credit_locked();
    ++count;
  }
  if (count == 0) return false;
  // The call's least predicted time on each memory node; a prediction missing anywhere
  // leaves the call to the scheduler, which calibrates first.
  constexpr int kNodes = ReuseCredit::kNodes;
  double exec_us[kNodes];
  for (double& us : exec_us) us = std::numeric_limits<double>::infinity();
  int places = 0;
  for (int g = 0; g < groups; ++g) {
    const int worker = g_group_worker[g].load(std::memory_order_relaxed);
    const int node = g_group_node[g].load(std::memory_order_relaxed);
    if (node < 0 || node >= kNodes) continue;
    starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(worker, STARPU_NMAX_SCHED_CTXS);
    for (unsigned nimpl = 0; nimpl < STARPU_MAXIMPLEMENTATIONS; ++nimpl) {
      if (!can_execute(worker, task, nimpl)) continue;
      const double us = starpu_task_expected_length(task, arch, nimpl);
      if (std::isnan(us)) return false;
      if (!std::isfinite(exec_us[node])) ++places;
      if (us < exec_us[node]) exec_us[node] = us;
    }
  }
  if (places < 2) return false;  // one place to run: nothing to choose
  const int nodes = static_cast<int>(std::min<unsigned>(starpu_memory_nodes_get_count(), kNodes));
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t bytes = starpu_data_get_size(handles[i]);
    for (int m = 0; m < nodes; ++m)
      if (std::isfinite(exec_us[m]))
        reads[i].bring_us[m] = handle_bring_us(handles[i], static_cast<unsigned>(m), bytes);
  }
  // What the call writes goes on to its next reader, taken to be where it was last read
  // (static dispatch charges the same: docs/SELECTION.md), or home for data not read since
  // the program made it: the one-off cost of running the calls elsewhere, beside the moves.
  double after_us[kNodes] = {};
  for (const Operand& op : ops_) {
    if (op.container == nullptr || (STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_W) == 0)
      continue;
    const int reader = op.container->last_reader();
    const unsigned next = reader >= 0 ? static_cast<unsigned>(reader) : STARPU_MAIN_RAM;
    const std::size_t bytes = op.container->shape().span() * op.container->shape().elem_size;
    for (int m = 0; m < nodes; ++m)
      if (std::isfinite(exec_us[m]) && static_cast<unsigned>(m) != next)
        after_us[m] += transfer_predict_us(static_cast<unsigned>(m), next, bytes);
  }
  const int node = choose_reuse_move(exec_us, nodes, reads, count, after_us);
  if (node < 0) return true;
  // Fetched now, after the data's pending writers (StarPU orders the request after them):
  // the scheduler then sees it there, or on its way, and charges this call no move.
  for (std::size_t i = 0; i < count; ++i)
    if (reads[i].move) (void)starpu_data_fetch_on_node(handles[i], static_cast<unsigned>(node), 1);
  return true;
}

void Call::forget_reuse_of_written(bool assessed) {
  for (const Operand& op : ops_) {
    if (op.container == nullptr) continue;
    const starpu_data_access_mode mode = STARPU_CODELET_GET_MODE(codelet_, op.index);
    if ((mode & STARPU_W) == 0) continue;
    // Read and written by a call the rule saw: its copy stays where the call runs, which is
    // where the rule would have moved the data for it; any other write ends the reuse.
    if (assessed && op.kind == OperandKind::Container && (mode & STARPU_R) != 0) continue;
    op.container->forget_reuse_locked();
  }
}

}  // namespace peppher::detail
