// See idle_workers.cpp.
#pragma once

namespace peppher::detail {

/// @brief From init(): pauses StarPU's workers (starpu_pause) whenever the runtime has been
///        idle for a few milliseconds, where StarPU's idle workers would spin (a StarPU built
///        with non-blocking drivers), unless PEPPHER_PAUSE_IDLE_WORKERS=0; and while an OpenCL
///        task runs on a device that shares the host's cores (CL_DEVICE_TYPE_CPU: pocl), lets
///        idle CPU workers block instead of polling, unless PEPPHER_YIELD_TO_OPENCL=0 (=1: beside
///        every OpenCL device). Neither under a distributed layer (StarPU-MPI moves data
///        without tasks). Returns whether idle workers leave the host's cores from now on
///        (paused here, or blocking by themselves): false where they poll on every core.
bool start_idle_pausing(bool distributed);

/// @brief From shutdown(): stops pausing and resumes the workers (starpu_shutdown needs them).
void stop_idle_pausing() noexcept;

// wake_workers() and task_submitted(), which the call path calls around each submission, are
// declared in devices/devices.h.

}  // namespace peppher::detail
