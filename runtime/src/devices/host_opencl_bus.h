// StarPU's bus model for a machine whose OpenCL devices all run on the host CPU (pocl),
// written by the runtime from a measurement of a few milliseconds instead of StarPU's own
// calibration (host_opencl_bus.cpp; docs/SELECTION.md, "OpenCL devices on the host's CPU").
#pragma once

namespace peppher::detail {

/// @brief Before starpu_init(), when every OpenCL device StarPU will take runs on the host
///        CPU: where this host has no bus model for those devices yet (no config file, or
///        one measured with another number of OpenCL devices), measures each device's copies
///        and latencies and writes StarPU's bus files (config last) in the format of the
///        StarPU in use, so that StarPU loads them instead of calibrating (0.3 s of 2 cores
///        beside pocl). Does nothing under STARPU_BUS_CALIBRATE, with a CUDA-enabled StarPU,
///        on a machine with more than one NUMA node, or when a measurement fails: StarPU
///        then calibrates as it always did.
void write_host_opencl_bus_model();

/// @brief The bandwidth (bytes/us) of a copy into a fresh buffer of StarPU's OpenCL device
///        @p devid, measured by write_host_opencl_bus_model() at this start; 0 when it did
///        not measure (calibrate_host_opencl_links() then measures it itself).
double fresh_bandwidth_measured_at_start(int devid);

}  // namespace peppher::detail
