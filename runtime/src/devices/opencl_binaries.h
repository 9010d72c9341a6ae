// Built OpenCL programs kept between runs (see opencl_binaries.cpp).
#pragma once

#include <starpu_opencl.h>

#include <string>

namespace peppher::detail {

/// @brief What building @p source (the kernel file @p path) with @p options for @p device
///        depends on, as a cache key: the source, every header it includes that can be
///        followed (next to the file, then through the options' -I folders), the options, and
///        the device's, its driver's and its platform's names and versions. "" when the
///        program is not to be kept: a `#include "..."` that cannot be followed, or an
///        `#include` of a macro.
std::string opencl_binary_key(const std::string& path, const std::string& source,
                              const std::string& options, cl_device_id device);

/// @brief The program kept under @p key, built (from its binary) with @p options for
///        @p device in @p context; nullptr when none is kept, or the kept file is damaged or
///        refused by the platform (that file is then removed, and the caller builds from
///        source).
cl_program load_kept_binary(const std::string& key, cl_context context, cl_device_id device,
                            const std::string& options);

/// @brief Keeps @p program's binary for @p device (built from source under @p key) for the
///        next runs, replacing what was kept for the same file and device. A failure to
///        write is said once per session, as a warning.
void keep_binary(const std::string& key, cl_program program, cl_device_id device);

}  // namespace peppher::detail
