// Component calls made from inside a running task (a variant calling a component, a
// variant's requiredInterfaces): they run on the calling worker with a host variant, on the
// task's own data, never as a task waited for there (docs/SELECTION.md, "Nested calls").
// Written for generated entry wrappers.
#pragma once

#include <starpu.h>

#include <limits>

#include "peppher/detail/backends.h"
#include "peppher/execution_counter.h"
#include "peppher/inline_call.h"

namespace peppher {

namespace detail {

/// @brief Nesting depth of component calls running on the calling thread inside a task
///        (0 outside a nested call); the trace names nested runs by it.
inline thread_local int t_nested_depth = 0;

/// @brief Whether the calling thread is inside a parallel region while an OPENMP variant
///        runs in a task (then it may be one of that variant's team threads).
bool in_openmp_team() noexcept;

/// @brief Whether the calling thread runs a task: a StarPU worker (in a task or its
///        callback) or, likely, a team thread of an OPENMP variant's parallel region. A
///        component call made here cannot wait for a task of its own.
inline bool in_task() noexcept {
  return starpu_worker_get_id() >= 0 || in_openmp_team();
}

/// @brief Throws the peppher::Error of a nested call that no host variant of @p iface can
///        run on the calling worker (@p why says what is missing).
[[noreturn]] void nested_call_fails(const char* iface, const char* why);

/// @brief Throws unless container operand @p param of a nested call to @p iface is a view
///        (the data of the running task, as its backend wrapper hands it to the variant):
///        a container of its own would need a host acquisition or a task to wait for, which
///        StarPU forbids inside a task.
[[noreturn]] void nested_container_fails(const char* iface, const char* param);
template <typename Container>
void require_view(const char* iface, const char* param, const Container& c) {
  if (!c.is_view()) nested_container_fails(iface, param);
}

/// @brief Records the end of a nested run in the trace (a span on the worker's track).
void trace_nested(const ExecutionCounter& counter, double start_us, int depth) noexcept;

/// @brief One nested run of a variant on the calling worker, for the lifetime of this
///        object: counts it (on the worker, as a task's run), and while tracing adds a span
///        nested in the running task's on that worker's track.
class NestedRun {
 public:
  explicit NestedRun(ExecutionCounter& counter) noexcept
      : counter_(counter), depth_(++t_nested_depth), start_(starpu_timing_now()) {
    counter.hit();  // the trace keeps the running task's own variant (depth > 0)
  }
  ~NestedRun() {
    --t_nested_depth;
    if (g_tracing.load(std::memory_order_relaxed)) trace_nested(counter_, start_, depth_);
  }
  NestedRun(const NestedRun&) = delete;
  NestedRun& operator=(const NestedRun&) = delete;

 private:
  ExecutionCounter& counter_;
  int depth_;
  double start_;
};

}  // namespace detail

/// @brief For a call made inside a running task (detail::in_task()): the variant (selector
///        index) to run on the calling worker. Throws peppher::Error when none can run there.
/// @param iface  the interface, for the message
/// @param kinds  each variant's kind, in selector order
/// @param n      number of variants
/// @param forced the forced variant (peppher::force_variant, PEPPHER_VARIANT), or -1
/// @param accepts `bool(int k)`: variant k's constraints hold for this call
/// @param cost   `double(int k)`: variant k's predicted microseconds, NaN when unknown
/// Only a CPU worker (or a team thread of an OPENMP variant) runs nested calls (a device
/// worker's variant holds device memory). A
/// forced variant runs if it is a host one and accepts the call. Otherwise a sequential CPU
/// variant that accepts the call (the cheapest when all of them have costs, else the
/// first); else the first OpenMP one that does, with the calling worker's team (its
/// combined worker's cores, else one thread).
template <typename Accepts, typename Cost>
int choose_nested(const char* iface, const InlineKind* kinds, int n, int forced, Accepts&& accepts,
                  Cost&& cost) {
  const int worker = starpu_worker_get_id();  // -1: a team thread of an OPENMP variant
  if (worker >= 0 && starpu_worker_get_type(worker) != STARPU_CPU_WORKER)
    detail::nested_call_fails(iface, "the calling worker is not a CPU worker");
  if (forced >= 0) {
    if (detail::runs_on_host(kinds[forced]) && accepts(forced)) return forced;
    detail::nested_call_fails(iface,
                              "the forced variant is not a host variant that accepts "
                              "the call");
  }
  int first = -1, best = -1, team = -1;
  bool all_costed = true;
  double best_us = std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) {
    if (!detail::runs_on_host(kinds[k]) || !accepts(k)) continue;
    if (!detail::runs_inline(kinds[k])) {
      if (team < 0) team = k;
      continue;
    }
    if (first < 0) first = k;
    const double us = cost(k);
    if (__builtin_isnan(us)) {  // not std::isnan: no <cmath> for it
      all_costed = false;
    } else if (us < best_us) {
      best_us = us;
      best = k;
    }
  }
  if (first >= 0) return all_costed && best >= 0 ? best : first;
  if (team >= 0) return team;
  detail::nested_call_fails(iface, "no CPU or OpenMP variant accepts the call");
}

}  // namespace peppher
