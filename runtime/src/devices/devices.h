// The one door between the rest of the runtime and the device-specific code of devices/
// (OpenCL programs and host OpenCL devices, CUDA, idle workers): the lifecycle and the call
// path (call/, data/, select/) include this header and no other of devices/. A new driver's
// set-up goes into the lifecycle hooks below (devices/devices.cpp), its backend into the
// table of include/peppher/detail/backends.h.
#pragma once

#include <starpu.h>

#include <cstdint>
#include <string>

namespace peppher::detail {

// ---- the lifecycle (lifecycle/init_shutdown.cpp), implemented in devices/devices.cpp -----

/// @brief Before starpu_init(), on the program's thread: the drivers' changes to StarPU's
///        environment (unused OpenCL platforms hidden, hwloc's device plugins left out where
///        no device worker can start), none of which loads a platform.
void configure_devices(starpu_conf& conf);
/// @brief Right before starpu_init(), on the thread that starts StarPU (a background start's
///        own): the changes that ask the OpenCL platforms (loading pocl takes 0.1-0.15 s):
///        with OpenCL devices on the host's cores only, a CPU worker on every core and
///        synchronous copies.
void configure_device_workers(starpu_conf& conf);
/// @brief After the start, on the program's thread: the process environment as it was
///        before configure_devices().
void restore_environment() noexcept;
/// @brief Right after starpu_init(): per-worker device handles (a cuBLAS handle per CUDA
///        worker, on its stream).
void open_devices();
/// @brief Once the runtime runs: the host OpenCL devices' links calibrated, the OpenCL
///        programs' background builds started, idle workers paused (not under a
///        @p distributed layer).
void start_device_services(bool distributed);
/// @brief From shutdown() (and a failed init()), before the tasks are waited for: the
///        calling thread's idle OpenMP team ended, the build in progress finished, the
///        workers resumed (starpu_shutdown needs them).
void stop_device_services() noexcept;
/// @brief Before StarPU stops: what open_devices() and the calibration kept for the session.
void close_devices() noexcept;

// ---- every task the runtime submits (call/, data/), implemented in idle_workers.cpp -----

/// @brief Resumes paused workers at once; called before every task the runtime submits.
void wake_workers() noexcept;
/// @brief After the runtime submitted a task: CPU workers blocked beside a running OpenCL
///        task poll again (the task may be theirs).
void task_submitted() noexcept;

// ---- devices the last run did not need, implemented in devices/unused_devices.cpp ---------

/// @brief Per call chosen by a history model (select/calibrating_choice.cpp) in a run with
///        its devices: whether the call of @p interface on @p bytes of operands ran best on
///        the host, every candidate measured (a device one included). @p interface is kept
///        by reference until shutdown: the selector's own name (VariantSelector::interface_name).
void note_call_outcome(const std::string& interface, std::uint64_t bytes,
                       bool best_on_host) noexcept;
/// @brief Per call a model prepares (select/) in a run started without its devices: checks
///        that the last run with devices found that call best on the host.
void note_call_without_devices(const std::string& interface, std::uint64_t bytes) noexcept;
/// @brief From shutdown(), before the counters are reset and StarPU stops: keeps, renews or
///        removes the program's record of calls that need no device, from this run's notes
///        and its execution counts (the next run starts no device when all ran best on the
///        host; docs/SELECTION.md, "Devices the last run did not need").
void keep_device_record();
/// @brief Whether every call noted so far in this run (note_call_outcome) ran best on the
///        host (true before the first note).
bool calls_noted_best_on_host() noexcept;
/// @brief Whether this run started no device because its last run needed none.
bool devices_skipped_this_run() noexcept;

// ---- predictions (select/) -------------------------------------------------------------
// detail::transfer_predict_us (peppher/placement.h: the bus model, corrected for host
// OpenCL devices and CUDA devices) is implemented in devices/devices.cpp.

}  // namespace peppher::detail
