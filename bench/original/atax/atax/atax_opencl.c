/* ATAX's OpenCL variant in the original PEPPHER tool's format: a host function handed the
   operands' buffers that launches the suite's two kernels (OpenCL/linear-algebra/kernels/atax/
   atax.cl, as written) on the worker's queue as the suite's host code does: 1-D, groups of 32,
   atax_kernel1 over the nx rows (tmp = A x), then atax_kernel2 over the ny columns
   (y = A^T tmp). Both kernels add to their output, which the suite's host code fills from
   zeroed arrays: here the buffers are zeroed on the device. */
#include "pb_opencl.h"

extern struct starpu_opencl_program atax_program; /* atax.cl, built for every device */
extern cl_kernel atax_kernel1_k;                  /* atax_kernel1 on this worker's device */
extern cl_command_queue atax_queue;               /* this worker's queue */

void atax_opencl(int nx, int ny, cl_mem A, cl_mem x, cl_mem y, cl_mem tmp) {
  const char* v = "atax_opencl";
  const size_t local = 32;
  pb_zero(atax_queue, tmp, nx, v);
  pb_zero(atax_queue, y, ny, v);
  PB_ARG(v, atax_kernel1_k, 0, A);
  PB_ARG(v, atax_kernel1_k, 1, x);
  PB_ARG(v, atax_kernel1_k, 2, tmp);
  PB_ARG(v, atax_kernel1_k, 3, nx);
  PB_ARG(v, atax_kernel1_k, 4, ny);
  pb_launch(atax_queue, atax_kernel1_k, 1, &nx, &local, v);
  cl_kernel k2 = pb_kernel(&atax_program, "atax_kernel2", v);
  PB_ARG(v, k2, 0, A);
  PB_ARG(v, k2, 1, y);
  PB_ARG(v, k2, 2, tmp);
  PB_ARG(v, k2, 3, nx);
  PB_ARG(v, k2, 4, ny);
  pb_launch(atax_queue, k2, 1, &ny, &local, v); /* the in-order queue runs it after the first */
  clReleaseKernel(k2);
}
