// OpenCL tasks on a device that runs on the host's own cores (pocl: CL_DEVICE_TYPE_CPU): while
// one runs, idle CPU workers block instead of polling, so the device's threads get every core
// (idle_workers.cpp, docs/SELECTION.md "Idle workers and the host's cores").
#pragma once

namespace peppher::detail {

/// @brief An OpenCL task starts on the calling worker's device @p devid (StarPU's OpenCL
///        device number). Returns true when it is counted (the device shares the host's
///        cores and the runtime lets idle CPU workers block meanwhile): then
///        opencl_task_ends() must follow.
bool opencl_task_begins(int devid) noexcept;

/// @brief A counted task ends: CPU workers blocked meanwhile poll again.
void opencl_task_ends() noexcept;

/// @brief For tests: whether the runtime's StarPU progression hook is registered now. It is
///        while the workers are paused, and for good while idle CPU workers yield to an
///        OpenCL device on the host's cores; otherwise the running workers' loops run none.
bool idle_progression_hook_registered() noexcept;

/// @brief For tests: whether idle CPU workers yield to an OpenCL device on the host's cores.
bool idle_workers_yield_to_opencl() noexcept;

/// @brief Announces an OpenCL task for its lifetime (OpenClLaunch holds one for the call).
class OpenClTaskScope {
 public:
  explicit OpenClTaskScope(int devid) noexcept : counted_(opencl_task_begins(devid)) {}
  ~OpenClTaskScope() {
    if (counted_) opencl_task_ends();
  }
  OpenClTaskScope(const OpenClTaskScope&) = delete;
  OpenClTaskScope& operator=(const OpenClTaskScope&) = delete;

 private:
  bool counted_;
};

}  // namespace peppher::detail
