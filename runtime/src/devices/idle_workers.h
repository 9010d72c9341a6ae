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

/// @brief Right before starpu_init(), where start_idle_pausing() will pause the workers (one
///        process, PEPPHER_PAUSE_IDLE_WORKERS not 0, a StarPU with non-blocking drivers):
///        each CPU worker that finds no task waits in an idle hook until the first pause,
///        instead of polling while the start, on the same cores, creates the other workers
///        and finishes (LUD on 2 CPU workers: both polled for 4-5 ms of its 8 ms start, the
///        starting thread waiting for a core).
void hold_workers_until_paused(bool distributed);

/// @brief The workers held by hold_workers_until_paused() go on (start_idle_pausing() calls
///        it; a failed start too).
void open_start_gate() noexcept;

/// @brief From shutdown(): stops pausing and resumes the workers (starpu_shutdown needs them).
void stop_idle_pausing() noexcept;

// wake_workers() and task_submitted(), which the call path calls around each submission, are
// declared in devices/devices.h.

}  // namespace peppher::detail
