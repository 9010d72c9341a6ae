// Devices a program's last run did not need are not started (unused_devices.cpp;
// docs/SELECTION.md, "Devices the last run did not need").
#pragma once

#include <starpu.h>

#include <cstdint>

namespace peppher::detail {

/// @brief Before starpu_init() (configure_devices): when this program's last run kept a
///        record that every call ran best on the host with every device variant measured,
///        and nothing asks for devices (STARPU_NOPENCL / STARPU_NCUDA and Config counts
///        unset, no PEPPHER_VARIANT or PEPPHER_PLACEMENT, every interface has a host
///        variant, not under --mpi), this run starts no OpenCL or CUDA worker (@p conf).
void skip_devices_unused_last_run(starpu_conf& conf);

/// @brief keep_device_record() (devices.h) with this run's @p runs, @p device_runs of them
///        on a device worker, and whether it @p had_devices.
void keep_device_record(std::uint64_t runs, std::uint64_t device_runs, bool had_devices);

}  // namespace peppher::detail
