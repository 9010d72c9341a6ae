// The program's own signal dispositions across the runtime's start: libpocl, loaded while
// StarPU starts (hwloc's OpenCL plugin, StarPU's OpenCL driver, the runtime's device count),
// installs a process-wide SIGFPE handler that skips a faulting integer division, in the
// user's code too. init() keeps what the program had (docs/ENVIRONMENT.md, "Signals").
#pragma once

#include <csignal>

namespace peppher::detail {

/// @brief Saves the program's SIGFPE disposition when made and puts it back when destroyed
///        (at the end of init(), whether it succeeded or threw, or of a background start).
class KeepSignalDispositions {
 public:
  KeepSignalDispositions() noexcept;
  ~KeepSignalDispositions();
  /// @brief Takes over @p other's saved disposition (which then puts nothing back): a
  ///        background start hands it to the code that ends the start.
  KeepSignalDispositions(KeepSignalDispositions&& other) noexcept;
  KeepSignalDispositions(const KeepSignalDispositions&) = delete;
  KeepSignalDispositions& operator=(const KeepSignalDispositions&) = delete;

 private:
  struct sigaction fpe_ {};
  bool saved_ = false;
};

}  // namespace peppher::detail
