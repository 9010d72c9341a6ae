// See opencl_programs.cpp.
#pragma once

namespace peppher::detail {

/// @brief Starts a new runtime session's OpenCL builds: a thread that builds every program
///        registered with OpenClProgram::build_at_init(), in registration order, for every
///        OpenCL device (nothing when StarPU has no OpenCL worker). Called by init(), with
///        whether idle workers leave the host's cores (the thread runs only on idle cores
///        beside a host OpenCL device where they do).
void start_opencl_builds(bool idle_workers_leave_cores);

/// @brief Stops the background builds after the one in progress and waits for it; called
///        by shutdown() before the programs are unloaded.
void finish_opencl_builds() noexcept;

}  // namespace peppher::detail
