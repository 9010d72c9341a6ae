// runtime_demo: the runtime on its own, before the composer generates anything. One
// hand-written codelet with a CPU and an OpenCL variant runs over a smart Vector a few
// times, block by block; the report shows which variant ran on which worker.
#include <starpu.h>
#include <starpu_opencl.h>

#include <cstdio>
#include <cstring>

#include "peppher/runtime.h"

namespace {

// v[i] = v[i] * a + b, on the CPU or on an OpenCL device.
const char* const kSource = R"CL(
__kernel void axpb(__global float* v, uint off, uint n, float a, float b) {
  uint i = get_global_id(0); if (i < n) v[off + i] = v[off + i] * a + b;
}
)CL";

struct Args {
  float a, b;
};

starpu_opencl_program g_program;
peppher::ExecutionCounter g_cpu_runs("axpb", "axpb_cpu", "cpu");
peppher::ExecutionCounter g_opencl_runs("axpb", "axpb_opencl", "opencl");

// The by-value argument, packed per task by starpu_task_insert(STARPU_VALUE, ...).
Args unpack(void* cl_arg) {
  Args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  return args;
}

void axpb_cpu(void* buffers[], void* cl_arg) {
  g_cpu_runs.hit();
  const Args args = unpack(cl_arg);
  auto* v = reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); ++i) v[i] = v[i] * args.a + args.b;
}

void axpb_opencl(void* buffers[], void* cl_arg) {
  g_opencl_runs.hit();
  const Args args = unpack(cl_arg);
  cl_mem mem = reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]));
  const cl_uint off = static_cast<cl_uint>(STARPU_VECTOR_GET_OFFSET(buffers[0]) / sizeof(float));
  const cl_uint n = STARPU_VECTOR_GET_NX(buffers[0]);
  cl_kernel kernel;
  cl_command_queue queue;
  int err = starpu_opencl_load_kernel(&kernel, &queue, &g_program, "axpb",
                                      starpu_worker_get_devid(starpu_worker_get_id()));
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  err |= clSetKernelArg(kernel, 0, sizeof mem, &mem);
  err |= clSetKernelArg(kernel, 1, sizeof off, &off);
  err |= clSetKernelArg(kernel, 2, sizeof n, &n);
  err |= clSetKernelArg(kernel, 3, sizeof(float), &args.a);
  err |= clSetKernelArg(kernel, 4, sizeof(float), &args.b);
  const size_t global = n;
  err |= clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  clFinish(queue);
  starpu_opencl_release_kernel(kernel);
}

starpu_codelet make_codelet() {
  starpu_codelet cl;
  std::memset(&cl, 0, sizeof cl);
  cl.name = "axpb";
  cl.cpu_funcs[0] = axpb_cpu;
  cl.opencl_funcs[0] = axpb_opencl;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  return cl;
}
starpu_codelet g_axpb = make_codelet();

// What a generated entry wrapper does for a partitioned call: one task per block.
void axpb(peppher::Vector<float>& v, float a, float b, std::size_t blocks) {
  for (starpu_data_handle_t h : v.partition_blocks(blocks)) {
    Args args{a, b};
    if (starpu_task_insert(&g_axpb, STARPU_RW, h, STARPU_VALUE, &args, sizeof args, 0) != 0)
      throw peppher::Error("runtime_demo: task submission failed");
  }
}

}  // namespace

int main() {
  PEPPHER_INITIALIZE();
  if (starpu_opencl_worker_get_count() > 0) {
    if (starpu_opencl_load_opencl_from_string(kSource, &g_program, nullptr) != 0) {
      std::fprintf(stderr, "runtime_demo: cannot compile the OpenCL kernel\n");
      return 1;
    }
    peppher::add_shutdown_hook([] { starpu_opencl_unload_opencl(&g_program); });
  }

  constexpr std::size_t n = 1 << 20;
  constexpr int calls = 4;
  peppher::Vector<float> v(n, 1.0f);
  for (int c = 0; c < calls; ++c) axpb(v, 2.0f, -1.0f, 8);  // asynchronous: 32 tasks in all

  // The first host read waits for the tasks and fetches device-side blocks once.
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += v[i] != 1.0f;  // 1*2-1 = 1, every time
  v[0] = 5.0f;                                                // host write
  axpb(v, 0.5f, 0.0f, 8);
  wrong += v[0] != 2.5f;
  wrong += v[n - 1] != 0.5f;

  std::printf("%s", peppher::report_string().c_str());
  std::printf("runtime_demo: %zu tasks on %u workers, %s\n",
              static_cast<std::size_t>(g_cpu_runs.total() + g_opencl_runs.total()),
              starpu_worker_get_count(), wrong == 0 ? "results OK" : "WRONG RESULTS");
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
