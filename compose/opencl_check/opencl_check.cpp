// compose's OpenCL build check, in a process of its own (see verify/kernel_build.h): compiles
// each kernel file given on the command line with every device of every OpenCL platform
// (clCompileProgram: the OpenCL C front end, as clBuildProgram runs it, without code
// generation) and prints, per file, whether it compiled and the platform's build log.
//
// usage: peppher-opencl-check FILE OPTIONS [FILE OPTIONS ...]
//        peppher-opencl-check -      (FILE '\0' OPTIONS '\0' records from stdin: compose
//                                     sends each as it finds it, while the platform loads)
// Output (stdout), per FILE in order:
//   item <index> ok
//   item <index> failed <CL error name> <device name>     then the build log, then
//   end
// Exit status: 0 when every file could be tried, 3 when the machine has no OpenCL platform
// or device (nothing tried), 2 on a usage error.
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* error_name(cl_int err) {
  switch (err) {
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE";
    case CL_COMPILE_PROGRAM_FAILURE:
      return "CL_COMPILE_PROGRAM_FAILURE";
    case CL_INVALID_COMPILER_OPTIONS:
      return "CL_INVALID_COMPILER_OPTIONS";
    case CL_INVALID_BUILD_OPTIONS:
      return "CL_INVALID_BUILD_OPTIONS";
    case CL_COMPILER_NOT_AVAILABLE:
      return "CL_COMPILER_NOT_AVAILABLE";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES";
    case CL_INVALID_OPERATION:
      return "CL_INVALID_OPERATION";
    default:
      return "CL_ERROR";
  }
}

struct Device {
  cl_device_id id;
  std::string name;
};

// One context per platform, holding all of its devices.
struct Platform {
  cl_context context = nullptr;
  std::vector<Device> devices;
};

std::vector<Platform> open_platforms() {
  std::vector<Platform> out;
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return out;
  std::vector<cl_platform_id> ids(n);
  if (clGetPlatformIDs(n, ids.data(), nullptr) != CL_SUCCESS) return out;
  for (cl_platform_id p : ids) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devs(nd);
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr) != CL_SUCCESS) continue;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(p), 0};
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(props, nd, devs.data(), nullptr, nullptr, &err);
    if (err != CL_SUCCESS || ctx == nullptr) continue;
    Platform platform;
    platform.context = ctx;
    for (cl_device_id d : devs) {
      char name[256] = "";
      clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
      platform.devices.push_back({d, name});
    }
    out.push_back(std::move(platform));
  }
  return out;
}

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
          CL_SUCCESS ||
      size == 0)
    return "";
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Compiles `source` with `options` on every device; prints the item's result.
void check(size_t index, const std::string& source, const std::string& options,
           const std::vector<Platform>& platforms) {
  for (const Platform& platform : platforms) {
    const char* text = source.c_str();
    const size_t length = source.size();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(platform.context, 1, &text, &length, &err);
    if (err != CL_SUCCESS) {
      std::cout << "item " << index << " failed " << error_name(err) << " "
                << platform.devices.front().name << "\nclCreateProgramWithSource failed\nend\n";
      return;
    }
    std::vector<cl_device_id> ids;
    for (const Device& d : platform.devices) ids.push_back(d.id);
    err = clCompileProgram(program, static_cast<cl_uint>(ids.size()), ids.data(), options.c_str(),
                           0, nullptr, nullptr, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      // The first device whose build failed, with its log.
      const Device* failed = &platform.devices.front();
      for (const Device& d : platform.devices) {
        cl_build_status status = CL_BUILD_NONE;
        clGetProgramBuildInfo(program, d.id, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                              nullptr);
        if (status == CL_BUILD_ERROR) {
          failed = &d;
          break;
        }
      }
      std::cout << "item " << index << " failed " << error_name(err) << " " << failed->name << "\n"
                << build_log(program, failed->id) << "\nend\n";
      clReleaseProgram(program);
      return;
    }
    clReleaseProgram(program);
  }
  std::cout << "item " << index << " ok\nend\n";
}

// The next FILE and OPTIONS record from stdin; false at its end.
bool next_record(std::string& file, std::string& options) {
  return std::getline(std::cin, file, '\0') && std::getline(std::cin, options, '\0');
}

}  // namespace

int main(int argc, char** argv) {
  const bool from_stdin = argc == 2 && std::string(argv[1]) == "-";
  if (!from_stdin && (argc < 3 || argc % 2 != 1)) {
    std::cerr << "usage: peppher-opencl-check FILE OPTIONS [FILE OPTIONS ...] | -\n";
    return 2;
  }
  const std::vector<Platform> platforms = open_platforms();
  if (platforms.empty()) {
    std::cout << "no OpenCL platform with a device\n";
    return 3;
  }
  std::string file, options;
  for (size_t index = 0;; ++index) {
    if (from_stdin) {
      if (!next_record(file, options)) break;
    } else {
      const int i = 1 + 2 * static_cast<int>(index);
      if (i + 1 >= argc) break;
      file = argv[i];
      options = argv[i + 1];
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cout << "item " << index << " failed CL_INVALID_VALUE -\ncannot read " << file
                << "\nend\n";
      std::cout.flush();
      continue;
    }
    std::ostringstream text;
    text << in.rdbuf();
    check(index, text.str(), options, platforms);
    std::cout.flush();
  }
  for (const Platform& p : platforms) clReleaseContext(p.context);
  return 0;
}
