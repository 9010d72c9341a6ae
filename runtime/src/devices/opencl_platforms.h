// Whether a run loads the machine's OpenCL platforms at all (opencl_platforms.cpp): StarPU
// 1.3 asks the OpenCL ICD loader for every platform at each start, even with no OpenCL
// worker wanted, and loading pocl (LLVM, Clang) costs about 100 ms of every run.
#pragma once

#include <starpu.h>

namespace peppher::detail {

/// @brief Before starpu_init(): when no OpenCL worker can be of use (@p conf.nopencl is 0,
///        or it is left to StarPU and no composed variant runs on OpenCL) and this host's
///        bus model was not measured with OpenCL devices, hides the OpenCL platforms from
///        this start, unless the user's own OCL_ICD_VENDORS or
///        OCL_ICD_FILENAMES says where they are (for the start only: start_environment.h).
void skip_unused_opencl_platforms(const starpu_conf& conf);

}  // namespace peppher::detail
