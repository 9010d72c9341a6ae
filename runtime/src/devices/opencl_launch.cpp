// OpenClLaunch's out-of-line half (peppher/opencl.h): block buffers, the NDRange launch and
// the errors naming the variant's kernel. Kept here so that the sources including the header
// (every generated wrapper with an OpenCL variant) parse and compile less.
#include <starpu.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include "peppher/error.h"
#include "peppher/opencl.h"

namespace peppher {

std::string opencl_error_name(cl_int err) {
  static const std::pair<cl_int, const char*> kNames[] = {
      {-1, "CL_DEVICE_NOT_FOUND"},
      {-2, "CL_DEVICE_NOT_AVAILABLE"},
      {-3, "CL_COMPILER_NOT_AVAILABLE"},
      {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {-5, "CL_OUT_OF_RESOURCES"},
      {-6, "CL_OUT_OF_HOST_MEMORY"},
      {-11, "CL_BUILD_PROGRAM_FAILURE"},
      {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {-30, "CL_INVALID_VALUE"},
      {-33, "CL_INVALID_DEVICE"},
      {-34, "CL_INVALID_CONTEXT"},
      {-36, "CL_INVALID_COMMAND_QUEUE"},
      {-38, "CL_INVALID_MEM_OBJECT"},
      {-44, "CL_INVALID_PROGRAM"},
      {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {-46, "CL_INVALID_KERNEL_NAME"},
      {-48, "CL_INVALID_KERNEL"},
      {-49, "CL_INVALID_ARG_INDEX"},
      {-50, "CL_INVALID_ARG_VALUE"},
      {-51, "CL_INVALID_ARG_SIZE"},
      {-52, "CL_INVALID_KERNEL_ARGS"},
      {-53, "CL_INVALID_WORK_DIMENSION"},
      {-54, "CL_INVALID_WORK_GROUP_SIZE"},
      {-55, "CL_INVALID_WORK_ITEM_SIZE"},
      {-56, "CL_INVALID_GLOBAL_OFFSET"},
      {-58, "CL_INVALID_EVENT"},
      {-61, "CL_INVALID_BUFFER_SIZE"},
      {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
  };
  for (const auto& [code, name] : kNames) {
    if (code == err) return name;
  }
  return "OpenCL error " + std::to_string(err);
}

cl_mem OpenClLaunch::buffer(cl_mem mem, size_t offset, size_t bytes, bool written) {
  if (offset == 0 || bytes == 0) return mem;
  cl_int err = CL_SUCCESS;
  cl_mem out = nullptr;
  if (offset % base_align() == 0) {
    const size_t region[2] = {offset, bytes};  // cl_buffer_region: origin, size
    const cl_uint region_type = 0x1220;        // CL_BUFFER_CREATE_TYPE_REGION
    out = clCreateSubBuffer(mem, 0, region_type, region, &err);
    check(err, "creating a sub-buffer");
    temporaries_.push_back({out, mem, 0, 0, false});
    return out;
  }
  cl_context context;
  check(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof context, &context, nullptr),
        "querying a buffer");
  out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "creating a block buffer");
  temporaries_.push_back({out, mem, offset, bytes, written});
  check(clEnqueueCopyBuffer(queue_, mem, out, offset, 0, bytes, 0, nullptr, nullptr),
        "copying a block in");
  return out;
}

void OpenClLaunch::run(std::initializer_list<size_t> global, std::initializer_list<size_t> local) {
  const cl_uint dims = static_cast<cl_uint>(global.size());
  if (dims < 1 || dims > 3 || (local.size() != 0 && local.size() != dims)) {
    check(CL_INVALID_WORK_DIMENSION, "checking the launch's dimensions");
  }
  size_t g[3] = {1, 1, 1}, l[3] = {0, 0, 0};
  std::copy(global.begin(), global.end(), g);
  std::copy(local.begin(), local.end(), l);
  for (cl_uint k = 0; k < dims; ++k) {
    if (g[k] == 0) return;
  }
  if (std::all_of(l, l + dims, [](size_t x) { return x == 0; })) {
    // A kernel declaring reqd_work_group_size(X, Y, Z) runs in groups of that size.
    size_t required[3] = {0, 0, 0};
    check(clGetKernelWorkGroupInfo(kernel_, device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof required, required, nullptr),
          "querying the kernel's required work-group size");
    std::copy(required, required + 3, l);
  }
  const bool grouped = std::all_of(l, l + dims, [](size_t x) { return x != 0; });
  if (grouped) {
    for (cl_uint k = 0; k < dims; ++k) g[k] = (g[k] + l[k] - 1) / l[k] * l[k];
  }
  cl_event event;
  check(clEnqueueNDRangeKernel(queue_, kernel_, dims, nullptr, g, grouped ? l : nullptr, 0, nullptr,
                               &event),
        "enqueueing");
  check(clWaitForEvents(1, &event), "waiting");
  starpu_opencl_collect_stats(event);
  clReleaseEvent(event);
  copy_back();
}

void OpenClLaunch::copy_back() {
  bool copied = false;
  for (const Temporary& t : temporaries_) {
    if (!t.copy_back) continue;
    check(clEnqueueCopyBuffer(queue_, t.mem, t.parent, 0, t.offset, t.bytes, 0, nullptr, nullptr),
          "copying a block back");
    copied = true;
  }
  if (copied) check(clFinish(queue_), "waiting for block copies");
}

starpu_opencl_program* OpenClLaunch::built(OpenClProgram& program) const {
  try {
    return program.get();
  } catch (const Error& e) {
    const std::string what = e.what();  // "peppher: " and the build's error
    throw Error(std::string(who_) + ": " + what.substr(what.find(' ') + 1));
  }
}

void OpenClLaunch::check(cl_int err, const char* what) const {
  if (err == CL_SUCCESS) return;
  const std::string kernel =
      *kernel_name_ != '\0' ? std::string("OpenCL kernel '") + kernel_name_ + "'" : "OpenCL";
  throw Error(std::string(who_) + ": " + kernel + ": " + opencl_error_name(err) + " (" +
              std::to_string(err) + ") while " + what);
}

cl_device_id OpenClLaunch::device() const {
  cl_device_id id;
  starpu_opencl_get_device(devid_, &id);
  return id;
}

size_t OpenClLaunch::base_align() const {
  cl_uint bits = 0;
  check(clGetDeviceInfo(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr),
        "querying the base address alignment");
  return bits >= 8 ? bits / 8 : 1;
}

}  // namespace peppher
