// Whether StarPU's asynchronous OpenCL copies are worth having on this run's devices.
// An OpenCL device that runs on the host CPU (pocl, STARPU_OPENCL_ON_CPUS=1) performs a
// "non-blocking" clEnqueueWriteBuffer as a memcpy inside the call, so an asynchronous copy
// overlaps nothing, and StarPU warns that its submission "took a very long time" and that
// the data should come from starpu_malloc, which it already does (StarPU 1.3 pins memory
// for CUDA only). Synchronous copies do the same work without the misleading warning.
#include "opencl_copies.h"

#define CL_TARGET_OPENCL_VERSION 120  // platform and device queries only
#include <CL/cl.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace peppher::detail {
namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// Devices of @p type over every OpenCL platform (0 when there is no OpenCL at all).
cl_uint count_devices(cl_device_type type) {
  cl_uint nplatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS || nplatforms == 0) return 0;
  std::vector<cl_platform_id> platforms(nplatforms);
  if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS) return 0;
  cl_uint total = 0;
  for (cl_platform_id p : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, type, 0, nullptr, &n) == CL_SUCCESS) total += n;
  }
  return total;
}

}  // namespace

bool opencl_copies_better_synchronous(int nopencl) {
  if (nopencl == 0) return false;  // no OpenCL worker: nothing to decide
  if (env_set("STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY")) return false;  // the user's choice
  // StarPU takes CPU OpenCL devices only when asked to.
  const char* on_cpus = std::getenv("STARPU_OPENCL_ON_CPUS");
  if (on_cpus == nullptr || std::strcmp(on_cpus, "0") == 0 || *on_cpus == '\0') return false;
  return count_devices(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) == 0 &&
         count_devices(CL_DEVICE_TYPE_CPU) > 0;
}

}  // namespace peppher::detail
