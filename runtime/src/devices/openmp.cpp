// OpenMP glue of OPENMP variants' backend wrappers, kept here so that no header generated
// code includes needs <omp.h> (the OpenMP calls themselves are in openmp_threads.cpp).
#include <starpu.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "devices/openmp_threads.h"
#include "peppher/nested_call.h"
#include "peppher/task.h"

namespace peppher {
namespace {

// How long a variant must have run for its team to be ended after it (see task.h). The
// threads' spin after the last parallel region delays the task's end by a few milliseconds;
// a new team costs 0.05-0.15 ms on a quiet 2-core machine, and more on a busy one (the new
// thread and the ending ones each wait for a core). Only calls long enough for both to be
// small end their team: with 5 ms, the models of e2e_selection's OpenMP-choice case picked
// its 40 ms sequential variant over its 30 ms OpenMP one in a clean-clone CI run.
constexpr auto kEndTeamAfter = std::chrono::milliseconds(50);

// OPENMP variants running in tasks now: while one runs, a thread inside a parallel region
// may be one of its team (nested_call.h, in_openmp_team()).
std::atomic<int> g_teams_running{0};

std::int64_t steady_now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

namespace detail {

bool in_openmp_team() noexcept {
  return g_teams_running.load(std::memory_order_relaxed) > 0 && openmp_in_parallel();
}

}  // namespace detail

OpenMpTeam::OpenMpTeam() noexcept
    : size_(starpu_combined_worker_get_size()), start_ns_(steady_now_ns()) {
  g_teams_running.fetch_add(1, std::memory_order_relaxed);
  detail::openmp_set_threads(size_ > 0 ? size_ : 1);
  if (size_ > 1) detail::openmp_count_the_workers();
}

OpenMpTeam::~OpenMpTeam() {
  g_teams_running.fetch_sub(1, std::memory_order_relaxed);
  if (size_ > 1 && std::chrono::nanoseconds(steady_now_ns() - start_ns_) >= kEndTeamAfter)
    detail::openmp_end_team();
}

OpenMpHere::OpenMpHere() noexcept : previous_(detail::openmp_max_threads()) {
  const unsigned workers = starpu_cpu_worker_get_count();
  detail::openmp_set_threads(workers > 0 ? static_cast<int>(workers) : 1);
}

OpenMpHere::~OpenMpHere() {
  detail::openmp_set_threads(previous_);
}

void** openmp_task_buffers(void** buffers, void** out, std::size_t capacity) noexcept {
  starpu_task* task = starpu_task_get_current();
  const int worker = starpu_worker_get_id();
  if (task == nullptr || task->cl == nullptr || task->cl->specific_nodes || worker < 0)
    return buffers;
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(worker));
  const unsigned count = STARPU_TASK_GET_NBUFFERS(task);
  if (count > capacity) return buffers;
  for (unsigned i = 0; i < count; ++i) {
    // Per-worker replicates, which the public API does not reach.
    if (STARPU_TASK_GET_MODE(task, i) & (STARPU_SCRATCH | STARPU_REDUX)) return buffers;
    out[i] = starpu_data_get_interface_on_node(STARPU_TASK_GET_HANDLE(task, i), node);
  }
  return out;
}

}  // namespace peppher
