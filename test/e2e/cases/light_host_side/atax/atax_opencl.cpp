// atax's host-side OpenCL variant in the light form: a host function handed the operands'
// buffers, launching both kernels of atax_opencl.cl on the worker's command queue. The
// generated wrapper defines atax_program and atax_queue, and atax_kernel because of:
// PEPPHER_KERNEL(atax_rows)
#include <starpu.h>

#include <cstdio>
#include <cstdlib>

extern struct starpu_opencl_program atax_program;
extern cl_kernel atax_kernel;
extern cl_command_queue atax_queue;

namespace {

void check(cl_int err, const char* what) {
  if (err == CL_SUCCESS) return;
  std::fprintf(stderr, "atax_opencl: %s: OpenCL error %d\n", what, err);
  std::abort();
}

void set_args(cl_kernel k, cl_mem A, cl_mem v, cl_mem w, int nx, int ny) {
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &A), "argument 0");
  check(clSetKernelArg(k, 1, sizeof(cl_mem), &v), "argument 1");
  check(clSetKernelArg(k, 2, sizeof(cl_mem), &w), "argument 2");
  check(clSetKernelArg(k, 3, sizeof(int), &nx), "argument 3");
  check(clSetKernelArg(k, 4, sizeof(int), &ny), "argument 4");
}

void launch(cl_kernel k, int n) {
  const size_t local = 64;
  const size_t global = (static_cast<size_t>(n) + local - 1) / local * local;
  check(clEnqueueNDRangeKernel(atax_queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
        "enqueueing");
}

}  // namespace

void atax_opencl(cl_mem A, cl_mem x, cl_mem y, cl_mem tmp, int nx, int ny) {
  set_args(atax_kernel, A, x, tmp, nx, ny);
  launch(atax_kernel, nx);
  // The second kernel, from the same program, built for this worker's device.
  cl_int err = CL_SUCCESS;
  const int devid = starpu_worker_get_devid(starpu_worker_get_id());
  cl_kernel cols = clCreateKernel(atax_program.programs[devid], "atax_cols", &err);
  check(err, "creating atax_cols");
  set_args(cols, A, y, tmp, nx, ny);
  launch(cols, ny);  // the in-order queue runs it after atax_rows
  check(clFinish(atax_queue), "waiting");
  clReleaseKernel(cols);
}
