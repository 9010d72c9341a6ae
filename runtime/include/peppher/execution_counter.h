// Execution report: each generated variant owns an ExecutionCounter and calls hit() when it
// runs; shutdown() prints who ran where when PEPPHER_REPORT=1, report_string() returns it.
#pragma once

#include <starpu.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "peppher/detail/trace.h"

namespace peppher {

/// @brief Per-worker run counts of one variant of one interface.
/// Construct once per variant (e.g. a function-local static in its backend wrapper); it
/// lists itself in the global report until destroyed.
/// @attention hit() is lock-free and safe from any worker; construction/destruction lock
///            the report's list.
class ExecutionCounter {
 public:
  /// @brief Counter for variant @p variant_name of @p interface_name on @p backend
  ///        (e.g. "cpu", "openmp", "opencl", "cuda").
  ExecutionCounter(std::string interface_name, std::string variant_name, std::string backend);
  ~ExecutionCounter();
  ExecutionCounter(const ExecutionCounter&) = delete;
  ExecutionCounter& operator=(const ExecutionCounter&) = delete;

  /// @brief Counts one run on the calling StarPU worker (starpu_worker_get_id(); a parallel
  ///        task on a combined worker counts for that combined worker; calls from outside a
  ///        worker, i.e. calls run inline on the calling thread, are counted as worker
  ///        "CPU inline (calling thread)").
  void hit() noexcept {
    int id = starpu_worker_get_id();
    if (id >= 0) {
      const int combined = starpu_combined_worker_get_id();
      if (combined >= 0 && starpu_worker_is_combined_worker(combined)) id = combined;
    }
    const std::size_t slot = id < 0 || id >= kMaxIds ? kHostSlot : std::size_t(id);
    counts_[slot].fetch_add(1, std::memory_order_relaxed);
    if (detail::g_tracing.load(std::memory_order_relaxed)) detail::trace_variant(this);
  }
  /// @brief Counts one run on worker @p worker_id without tracing it: a simulated run
  ///        (StarPU on SimGrid), where the variant itself does not run and its task's end
  ///        counts it instead (observe/simulated_runs.cpp).
  void count_run(int worker_id) noexcept {
    const std::size_t slot =
        worker_id < 0 || worker_id >= kMaxIds ? kHostSlot : std::size_t(worker_id);
    counts_[slot].fetch_add(1, std::memory_order_relaxed);
  }
  /// @brief Runs counted on worker (or combined worker) @p worker_id (-1: outside any).
  std::uint64_t count(int worker_id) const noexcept;
  /// @brief Runs counted on all workers.
  std::uint64_t total() const noexcept;
  /// @brief Sets every count to zero (init() does it for every counter).
  void reset() noexcept;

  const std::string& interface_name() const noexcept { return interface_; }
  const std::string& variant_name() const noexcept { return variant_; }
  const std::string& backend() const noexcept { return backend_; }

  /// @brief Worker ids counted: StarPU's workers, then its combined workers (ids from
  ///        starpu_worker_get_count() up).
  static constexpr int kMaxIds = 2 * STARPU_NMAXWORKERS;
  /// @brief Slot of calls made outside any StarPU worker.
  static constexpr std::size_t kHostSlot = kMaxIds;

 private:
  std::string interface_;
  std::string variant_;
  std::string backend_;
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "hit() must be lock-free");
  std::array<std::atomic<std::uint64_t>, kMaxIds + 1> counts_{};
};

/// @brief The report table: one line per (interface, variant, worker) that ran at least
///        once, columns interface, variant, backend, worker (StarPU's worker name; a
///        combined worker as "combined(CPU 0, CPU 1)"), count.
///        Worker names are those of the last init(); works after shutdown() too.
/// @attention Thread-safe; counts read while tasks run are a snapshot.
std::string report_string();

/// @brief Sets every counter's counts to zero.
void reset_report() noexcept;

namespace detail {
/// @brief Runs counted by every counter, and those on a device worker (OpenCL, CUDA).
struct RunCounts {
  std::uint64_t all = 0;
  std::uint64_t on_devices = 0;
};
/// @brief The counts now (while StarPU runs: worker types are asked).
RunCounts run_counts();
}  // namespace detail

}  // namespace peppher
