// See opencl_copies.cpp.
#pragma once

namespace peppher::detail {

/// @brief True when every OpenCL device StarPU will use runs on the host CPU (pocl with
///        STARPU_OPENCL_ON_CPUS=1) and the user did not set
///        STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY: then init() asks StarPU for synchronous
///        OpenCL copies. @p nopencl is the configured OpenCL worker count (-1: StarPU's default).
bool opencl_copies_better_synchronous(int nopencl);

}  // namespace peppher::detail
