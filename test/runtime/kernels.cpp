// CPU and OpenCL implementations of the test codelets; every implementation counts its runs
// with a peppher::ExecutionCounter, like generated variant wrappers do.
#include "kernels.h"

#include <starpu_opencl.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <thread>

#include "peppher/runtime.h"

namespace peppher_test {

starpu_codelet make_codelet(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                            std::initializer_list<starpu_data_access_mode> modes) {
  starpu_codelet cl;
  std::memset(&cl, 0, sizeof cl);
  cl.name = name;
  cl.cpu_funcs[0] = cpu;
  cl.opencl_funcs[0] = ocl;
  cl.nbuffers = static_cast<int>(modes.size());
  int i = 0;
  for (auto m : modes) cl.modes[i++] = m;
  return cl;
}

namespace {

const char* const kSource = R"CL(
__kernel void fill(__global uint* v, uint off, uint n, uint a, uint b) {
  uint i = get_global_id(0); if (i < n) v[off + i] = a + b * i;
}
__kernel void affine(__global uint* v, uint off, uint n, uint a, uint b) {
  uint i = get_global_id(0); if (i < n) v[off + i] = v[off + i] * a + b;
}
__kernel void add(__global const uint* s, uint soff, __global uint* d, uint doff, uint n, uint c) {
  uint i = get_global_id(0); if (i < n) d[doff + i] = s[soff + i] + c;
}
__kernel void sum(__global const uint* v, uint off, uint n, __global uint* out, uint ooff) {
  if (get_global_id(0) == 0) {
    uint acc = 0;
    for (uint i = 0; i < n; ++i) acc += v[off + i];
    out[ooff] = acc;
  }
}
__kernel void touch(__global const uint* v, uint off, uint n, __global uint* unused) {
  if (get_global_id(0) == n) unused[0] = v[off];
}
__kernel void mat_affine(__global uint* m, uint off, uint nx, uint ny, uint ld, uint a, uint b) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i < ny && j < nx) m[off + i * ld + j] = m[off + i * ld + j] * a + b;
}
)CL";

using Args = KernelArgs;

starpu_opencl_program g_program;
bool g_loaded = false;

peppher::ExecutionCounter c_fill_cpu("fill", "fill_cpu", "cpu");
peppher::ExecutionCounter c_fill_ocl("fill", "fill_opencl", "opencl");
peppher::ExecutionCounter c_affine_cpu("affine", "affine_cpu", "cpu");
peppher::ExecutionCounter c_affine_ocl("affine", "affine_opencl", "opencl");

const Args& args_of(void* arg) {
  return *static_cast<const Args*>(arg);
}
std::uint32_t* vec(void* buf) {
  return reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buf));
}
std::uint32_t vlen(void* buf) {
  return STARPU_VECTOR_GET_NX(buf);
}
cl_mem vmem(void* buf) {
  return reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buf));
}
cl_uint voff(void* buf) {
  return static_cast<cl_uint>(STARPU_VECTOR_GET_OFFSET(buf) / sizeof(std::uint32_t));
}

// Runs kernel @p name over gx (x gy) work-items with the given arguments, synchronously.
template <typename... A>
void launch(const char* name, size_t gx, size_t gy, A... args) {
  const int devid = starpu_worker_get_devid(starpu_worker_get_id());
  cl_kernel kernel;
  cl_command_queue queue;
  int err = starpu_opencl_load_kernel(&kernel, &queue, &g_program, name, devid);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  cl_uint index = 0;
  ((err |= clSetKernelArg(kernel, index++, sizeof(A), &args)), ...);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  const size_t global[2] = {gx, gy};
  err = clEnqueueNDRangeKernel(queue, kernel, gy != 0 ? 2 : 1, nullptr, global, nullptr, 0, nullptr,
                               nullptr);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  clFinish(queue);
  starpu_opencl_release_kernel(kernel);
}

void fill_cpu(void* b[], void* arg) {
  c_fill_cpu.hit();
  const Args& p = args_of(arg);
  std::uint32_t* v = vec(b[0]);
  for (std::uint32_t i = 0; i < vlen(b[0]); ++i) v[i] = p.a + p.b * i;
}
void fill_ocl(void* b[], void* arg) {
  c_fill_ocl.hit();
  const Args& p = args_of(arg);
  launch("fill", vlen(b[0]), 0, vmem(b[0]), voff(b[0]), cl_uint(vlen(b[0])), cl_uint(p.a),
         cl_uint(p.b));
}
void affine_cpu(void* b[], void* arg) {
  c_affine_cpu.hit();
  const Args& p = args_of(arg);
  std::uint32_t* v = vec(b[0]);
  for (std::uint32_t i = 0; i < vlen(b[0]); ++i) v[i] = v[i] * p.a + p.b;
}
void affine_ocl(void* b[], void* arg) {
  c_affine_ocl.hit();
  const Args& p = args_of(arg);
  launch("affine", vlen(b[0]), 0, vmem(b[0]), voff(b[0]), cl_uint(vlen(b[0])), cl_uint(p.a),
         cl_uint(p.b));
}
void add_cpu(void* b[], void* arg) {
  const std::uint32_t* s = vec(b[0]);
  std::uint32_t* d = vec(b[1]);
  for (std::uint32_t i = 0; i < vlen(b[1]); ++i) d[i] = s[i] + args_of(arg).a;
}
void add_ocl(void* b[], void* arg) {
  launch("add", vlen(b[1]), 0, vmem(b[0]), voff(b[0]), vmem(b[1]), voff(b[1]), cl_uint(vlen(b[1])),
         cl_uint(args_of(arg).a));
}
void sum_cpu(void* b[], void*) {
  std::uint32_t acc = 0;
  for (std::uint32_t i = 0; i < vlen(b[0]); ++i) acc += vec(b[0])[i];
  *reinterpret_cast<std::uint32_t*>(STARPU_VARIABLE_GET_PTR(b[1])) = acc;
}
void sum_ocl(void* b[], void*) {
  launch("sum", 1, 0, vmem(b[0]), voff(b[0]), cl_uint(vlen(b[0])),
         reinterpret_cast<cl_mem>(STARPU_VARIABLE_GET_DEV_HANDLE(b[1])),
         cl_uint(STARPU_VARIABLE_GET_OFFSET(b[1]) / sizeof(std::uint32_t)));
}
void touch_cpu(void* b[], void*) {
  volatile std::uint32_t x = vec(b[0])[0];
  (void)x;
}
void touch_ocl(void* b[], void*) {
  launch("touch", 1, 0, vmem(b[0]), voff(b[0]), cl_uint(vlen(b[0])), vmem(b[0]));
}
void mat_affine_cpu(void* b[], void* arg) {
  const Args& p = args_of(arg);
  auto* m = reinterpret_cast<std::uint32_t*>(STARPU_MATRIX_GET_PTR(b[0]));
  const std::uint32_t nx = STARPU_MATRIX_GET_NX(b[0]), ny = STARPU_MATRIX_GET_NY(b[0]);
  const std::uint32_t ld = STARPU_MATRIX_GET_LD(b[0]);
  for (std::uint32_t i = 0; i < ny; ++i)
    for (std::uint32_t j = 0; j < nx; ++j) m[i * ld + j] = m[i * ld + j] * p.a + p.b;
}
void mat_affine_ocl(void* b[], void* arg) {
  const Args& p = args_of(arg);
  const cl_uint nx = STARPU_MATRIX_GET_NX(b[0]), ny = STARPU_MATRIX_GET_NY(b[0]);
  launch("mat_affine", nx, ny, reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(b[0])),
         cl_uint(STARPU_MATRIX_GET_OFFSET(b[0]) / sizeof(std::uint32_t)), nx, ny,
         cl_uint(STARPU_MATRIX_GET_LD(b[0])), cl_uint(p.a), cl_uint(p.b));
}
void slow_affine_cpu(void* b[], void* arg) {
  std::this_thread::sleep_for(std::chrono::milliseconds(args_of(arg).ms));
  affine_cpu(b, arg);
}

starpu_codelet cl_fill = make_codelet("fill", fill_cpu, fill_ocl, {STARPU_W});
starpu_codelet cl_affine = make_codelet("affine", affine_cpu, affine_ocl, {STARPU_RW});
starpu_codelet cl_add = make_codelet("add", add_cpu, add_ocl, {STARPU_R, STARPU_W});
starpu_codelet cl_sum = make_codelet("sum", sum_cpu, sum_ocl, {STARPU_R, STARPU_W});
starpu_codelet cl_touch = make_codelet("touch", touch_cpu, touch_ocl, {STARPU_R});
starpu_codelet cl_mat_affine =
    make_codelet("mat_affine", mat_affine_cpu, mat_affine_ocl, {STARPU_RW});
starpu_codelet cl_slow_affine = make_codelet("slow_affine", slow_affine_cpu, nullptr, {STARPU_RW});

void submit(starpu_codelet* cl, std::initializer_list<starpu_data_handle_t> handles,
            const Args& args, Where where) {
  starpu_task* task = starpu_task_create();
  task->cl = cl;
  unsigned i = 0;
  for (auto h : handles) task->handles[i++] = h;
  void* packed = std::malloc(sizeof(Args));
  std::memcpy(packed, &args, sizeof(Args));
  task->cl_arg = packed;
  task->cl_arg_size = sizeof(Args);
  task->cl_arg_free = 1;
  const int worker = worker_for(where);
  if (worker >= 0) {
    task->execute_on_a_specific_worker = 1;
    task->workerid = static_cast<unsigned>(worker);
  }
  const int ret = starpu_task_submit(task);
  if (ret != 0) throw std::runtime_error(std::string("starpu_task_submit failed for ") + cl->name);
}

}  // namespace

int worker_for(Where where) {
  if (where == Where::Any) return -1;
  const auto type = where == Where::Cpu ? STARPU_CPU_WORKER : STARPU_OPENCL_WORKER;
  const int id = starpu_worker_get_by_type(type, 0);
  if (id < 0) throw std::runtime_error("no worker of the requested kind");
  return id;
}

starpu_codelet affine_codelet() {
  return cl_affine;
}
starpu_codelet mat_affine_codelet() {
  return cl_mat_affine;
}
starpu_codelet add_codelet() {
  return cl_add;
}

bool has_opencl() {
  return starpu_opencl_worker_get_count() > 0;
}

void load_kernels() {
  if (!has_opencl() || g_loaded) return;
  if (starpu_opencl_load_opencl_from_string(kSource, &g_program, nullptr) != 0)
    throw std::runtime_error("cannot compile the test OpenCL kernels");
  g_loaded = true;
  peppher::add_shutdown_hook([] {
    starpu_opencl_unload_opencl(&g_program);
    g_loaded = false;
  });
}

void fill(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, Where w) {
  submit(&cl_fill, {v}, {a, b, 0}, w);
}
void affine(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, Where w) {
  submit(&cl_affine, {v}, {a, b, 0}, w);
}
void add(starpu_data_handle_t src, starpu_data_handle_t dst, std::uint32_t c, Where w) {
  submit(&cl_add, {src, dst}, {c, 0, 0}, w);
}
void sum(starpu_data_handle_t v, starpu_data_handle_t out, Where w) {
  submit(&cl_sum, {v, out}, {}, w);
}
void touch(starpu_data_handle_t v, Where w) {
  submit(&cl_touch, {v}, {}, w);
}
void mat_affine(starpu_data_handle_t m, std::uint32_t a, std::uint32_t b, Where w) {
  submit(&cl_mat_affine, {m}, {a, b, 0}, w);
}
void slow_affine(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, unsigned ms) {
  submit(&cl_slow_affine, {v}, {a, b, ms}, Where::Cpu);
}

}  // namespace peppher_test
