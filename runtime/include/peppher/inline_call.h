// Running a component call on the calling thread: when the selection (forcing, static
// dispatch, the trained table, constraints, the workers of this run) picks a sequential CPU
// variant for a call whose operands are all raw pointers (host memory the call would copy
// back before returning anyway), a task cannot win: the entry wrapper calls the variant
// directly. A call on containers does the same with a host variant while nothing else runs
// (runs_here). Written for generated entry wrappers.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <limits>

#include "peppher/detail/backends.h"
#include "peppher/detail/trace.h"
#include "peppher/execution_counter.h"

namespace peppher {

namespace detail {

/// @brief Workers of this run that can run a variant of kind @p k (its backend's record).
inline unsigned workers_of(InlineKind k) noexcept {
  const Backend* b = backend_of(k);
  return b != nullptr ? workers_of(*b) : 0;
}

/// @brief Whether a variant of kind @p k may run on the calling thread: sequential CPU.
inline bool runs_inline(InlineKind k) noexcept {
  const Backend* b = backend_of(k);
  return b != nullptr && b->runs == BackendRuns::OneCore;
}

/// @brief Whether a variant of kind @p k runs on the host's cores (sequential or a team).
inline bool runs_on_host(InlineKind k) noexcept {
  const Backend* b = backend_of(k);
  return b != nullptr && b->runs != BackendRuns::Device;
}

/// @brief Whether a container call whose entry wrapper chose a variant of kind @p k runs it
///        on the calling thread: a host variant (sequential, or OpenMP with a team of the
///        run's CPU workers) with workers in this run, while no task at all is in flight (the
///        workers are then idle and no task holds the call's containers; the containers' host
///        phases order the call with the tasks that come later). A task would add its
///        submission, the wake-up of its worker and, for an OpenMP variant, the fork and join
///        of a combined worker to every call: about 280 us per call on 2 cores, where a short
///        stencil step takes 50-100 us. Called from a task (a variant calling a component),
///        that task is in flight: never.
inline bool runs_here(InlineKind k) noexcept {
  return runs_on_host(k) && workers_of(k) > 0 && starpu_task_nsubmitted() == 0;
}

/// @brief Records the end of a variant's run on the calling thread in the trace (a span on
///        that thread's own track, "calling thread").
void trace_here(const ExecutionCounter& counter, double start_us) noexcept;

/// @brief One run of a variant on the calling thread, for the lifetime of this object:
///        counted (the report's "CPU inline (calling thread)"), and while tracing a span on
///        the calling thread's track, as a task's on its worker's.
class HereSpan {
 public:
  explicit HereSpan(ExecutionCounter& counter) noexcept
      : counter_(counter),
        start_(g_tracing.load(std::memory_order_relaxed) ? starpu_timing_now() : -1) {
    counter.hit();
  }
  ~HereSpan() {
    if (start_ >= 0 && g_tracing.load(std::memory_order_relaxed)) trace_here(counter_, start_);
  }
  HereSpan(const HereSpan&) = delete;
  HereSpan& operator=(const HereSpan&) = delete;

 private:
  ExecutionCounter& counter_;
  double start_;
};

/// @brief Makes the host memory [@p ptr, @p ptr + @p bytes) safe for the calling thread
///        to use as a call's operand (@p write: the call writes it): when it lies inside a
///        live container whose data a task may hold, acquires that container on the host
///        first (waiting for its tasks, fetching its data home). Cheap when no container
///        is alive.
void prepare_inline_operand(const void* ptr, std::size_t bytes, bool write);

/// @brief The container part of prepare_inline_operand(), for a raw operand that becomes a
///        task: the container's own tasks are not ordered with it by StarPU (another handle).
void wait_for_aliased_container(const void* ptr, std::size_t bytes, bool write);

}  // namespace detail

/// @brief The cost a cost function of choose_inline() or choose_nested() gives a variant
///        it has no prediction for: a quiet NaN (generated code needs no <cmath> for NAN).
inline constexpr double kUnknownCost = std::numeric_limits<double>::quiet_NaN();

/// @brief The variant (selector index) to run on the calling thread, or -1 for a task.
/// @param kinds  each variant's kind, in selector order
/// @param n      number of variants
/// @param chosen the variant already chosen (forcing, static dispatch), or -1
/// @param accepts `bool(int k)`: variant k's constraints hold for this call
/// @param cost   `double(int k)`: variant k's predicted microseconds for this call, NaN
///               (kUnknownCost) when unknown (no trained table)
/// @param model_decides a performance model inside StarPU (history models, prediction
///               functions) chooses among the variants: without costs here, only a lone
///               candidate runs inline
/// A chosen variant runs inline when it is sequential CPU. Otherwise, among the variants
/// that accept the call and have workers in this run: when every one has a predicted cost,
/// the cheapest runs inline if it is sequential CPU (else the task goes to the scheduler,
/// which also weighs transfers); when some cost is unknown, the first runs inline only if
/// all of them are CPU-side (nothing else could win), it is sequential, and no model inside
/// StarPU would choose among several.
template <typename Accepts, typename Cost>
int choose_inline(const InlineKind* kinds, int n, int chosen, Accepts&& accepts, Cost&& cost,
                  bool model_decides) {
  if (chosen >= 0) return detail::runs_inline(kinds[chosen]) ? chosen : -1;
  int first = -1, best = -1, candidates = 0;
  bool only_cpu = true, all_costed = true;
  double best_us = std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) {
    if (detail::workers_of(kinds[k]) == 0 || !accepts(k)) continue;
    if (first < 0) first = k;
    ++candidates;
    only_cpu = only_cpu && detail::runs_on_host(kinds[k]);
    const double us = cost(k);
    if (__builtin_isnan(us)) {  // not std::isnan: no <cmath> for it
      all_costed = false;
    } else if (us < best_us) {
      best_us = us;
      best = k;
    }
  }
  if (first < 0) return -1;  // nobody accepts: the task path reports it
  if (all_costed && best >= 0) return detail::runs_inline(kinds[best]) ? best : -1;
  if (model_decides && candidates > 1) return -1;  // the model's choice, not ours
  return only_cpu && detail::runs_inline(kinds[first]) ? first : -1;
}

}  // namespace peppher
