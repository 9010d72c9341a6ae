// Internal: the hooks through which component calls reach the execution trace
// (PEPPHER_TRACE / Config::trace_file, recorded by runtime/src/observe/trace.cpp). With tracing off
// each hook is one relaxed atomic load.
#pragma once

#include <starpu.h>

#include <atomic>

namespace peppher {
class ExecutionCounter;
}

namespace peppher::detail {

/// @brief True while the runtime records a trace (between init() and shutdown()).
extern std::atomic<bool> g_tracing;

/// @brief Attaches a trace record to @p task of interface @p iface (block @p block of a
///        partitioned call, -1 for a whole call; block 0 or -1 starts a new call).
void trace_attach(starpu_task* task, const char* iface, int block);

/// @brief Takes the trace record off @p task, which is destroyed without running (a failed
///        submission, or a task another MPI rank executes): nothing recorded, nothing leaked.
void trace_detach(starpu_task* task) noexcept;

/// @brief Called by the variant that runs the current task: names it in the trace.
void trace_variant(const ExecutionCounter* counter) noexcept;

/// @brief In task submission, right before starpu_task_submit: records @p task when tracing.
inline void trace_task(starpu_task* task, const char* iface, int block = -1) {
  if (g_tracing.load(std::memory_order_relaxed)) trace_attach(task, iface, block);
}

}  // namespace peppher::detail
