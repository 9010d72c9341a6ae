// The one door between the rest of the runtime and the device-specific code of devices/
// (OpenCL programs and host OpenCL devices, CUDA, idle workers): the lifecycle and the call
// path (call/, data/, select/) include this header and no other of devices/. A new driver's
// set-up goes into the lifecycle hooks below (devices/devices.cpp), its backend into the
// table of include/peppher/detail/backends.h.
#pragma once

#include <starpu.h>

namespace peppher::detail {

// ---- the lifecycle (lifecycle/init_shutdown.cpp), implemented in devices/devices.cpp -----

/// @brief Before starpu_init(): the drivers' changes to StarPU's set-up (with OpenCL devices
///        on the host's cores only: a CPU worker on every core, synchronous copies).
void configure_devices(starpu_conf& conf);
/// @brief Right after starpu_init() returned, started or not: the process environment as
///        it was before configure_devices() (which hides unused OpenCL platforms from
///        StarPU's start, opencl_platforms.h).
void restore_environment() noexcept;
/// @brief Right after starpu_init(): per-worker device handles (a cuBLAS handle per CUDA
///        worker, on its stream).
void open_devices();
/// @brief Once the runtime runs: the host OpenCL devices' links calibrated, the OpenCL
///        programs' background builds started, idle workers paused (not under a
///        @p distributed layer).
void start_device_services(bool distributed);
/// @brief From shutdown() (and a failed init()), before the tasks are waited for: the
///        build in progress finished, the workers resumed (starpu_shutdown needs them).
void stop_device_services() noexcept;
/// @brief Before StarPU stops: what open_devices() and the calibration kept for the session.
void close_devices() noexcept;

// ---- every task the runtime submits (call/, data/), implemented in idle_workers.cpp -----

/// @brief Resumes paused workers at once; called before every task the runtime submits.
void wake_workers() noexcept;
/// @brief After the runtime submitted a task: CPU workers blocked beside a running OpenCL
///        task poll again (the task may be theirs).
void task_submitted() noexcept;

// ---- predictions (select/) -------------------------------------------------------------
// detail::transfer_predict_us (peppher/placement.h: the bus model, corrected for host
// OpenCL devices and CUDA devices) is implemented in devices/devices.cpp.

}  // namespace peppher::detail
