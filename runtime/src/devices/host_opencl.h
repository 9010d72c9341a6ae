// OpenCL devices that run on the host's CPU cores (pocl with STARPU_OPENCL_ON_CPUS=1): what
// init() changes in StarPU's set-up for them, and how long a call's copies to them take.
// See host_opencl.cpp and docs/SELECTION.md ("OpenCL devices on the host's CPU").
#pragma once

#include <starpu.h>

#include <cstddef>

namespace peppher::detail {

/// @brief Whether StarPU's OpenCL device @p devid runs on the host CPU (CL_DEVICE_TYPE_CPU).
bool runs_on_host_cpu(int devid);

/// @brief Before starpu_init(): when every OpenCL device StarPU will use runs on the host
///        CPU (and no CUDA device is in play), a CPU worker on every core (@p conf.ncpus,
///        unless STARPU_NCPU or Config::ncpus set it: the OpenCL driver waits, it needs no
///        core of its own) and synchronous OpenCL copies (unless
///        STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY is set).
void configure_for_host_opencl(starpu_conf& conf);

/// @brief After starpu_init(): the bandwidth of writing into a fresh buffer of each host
///        OpenCL device (measured once per STARPU_HOME and kept beside StarPU's bus files),
///        written into StarPU's bus model file for the schedulers of later runs. Does
///        nothing without such devices.
void calibrate_host_opencl_links();

/// @brief Forgets this session's host OpenCL links (close_devices()).
void forget_host_opencl_links() noexcept;

/// @brief Expected microseconds to copy @p bytes from host memory node @p src into node
///        @p dst, a host OpenCL device, at the bandwidth measured for a fresh device buffer;
///        negative when that is not such a copy or nothing was measured.
double host_opencl_copy_us(unsigned src, unsigned dst, std::size_t bytes) noexcept;

}  // namespace peppher::detail
