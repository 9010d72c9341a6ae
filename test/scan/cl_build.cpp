// Builds OpenCL C files with the first OpenCL device (pocl on the test machines), as the
// runtime would: cl_build a.cl b.cl ... prints each failure with its build log; exit 1 then.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    std::cerr << "cl_build: no OpenCL device\n";
    return 2;
  }
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) {
    std::cerr << "cl_build: no OpenCL context\n";
    return 2;
  }
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    const char* src = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
    if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "-Werror", nullptr, nullptr);
    if (err != CL_SUCCESS) {
      ++failures;
      size_t size = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::vector<char> log(size + 1, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      std::cerr << argv[i] << ": OpenCL build failed (" << err << "):\n" << log.data() << "\n";
    }
    if (program != nullptr) clReleaseProgram(program);
  }
  clReleaseContext(context);
  return failures == 0 ? 0 : 1;
}
