// bench/startup: what the runtime's start and stop add to a whole run. The same binary runs
// with the runtime (PEPPHER_INITIALIZE, no call, PEPPHER_SHUTDOWN: a composed program's
// fixed cost), without it (`bare`: what the program costs to load and exit), or with only
// what any OpenCL program pays to start (`opencl`: the platforms loaded, a context on the
// first CPU device, released: with pocl, LLVM and Clang loaded).
//   bench_startup runtime|bare|opencl
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstring>

#include "peppher.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "bare") == 0) return 0;
  if (argc == 2 && std::strcmp(argv[1], "opencl") == 0) {
    cl_platform_id platform;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) return 1;
    cl_device_id device;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) != CL_SUCCESS) return 1;
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return 1;
    clReleaseContext(context);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "runtime") == 0) {
    PEPPHER_INITIALIZE();
    PEPPHER_SHUTDOWN();
    return 0;
  }
  std::fprintf(stderr, "usage: bench_startup runtime|bare|opencl\n");
  return 2;
}
