/* BICG's OpenCL variant in the original PEPPHER tool's format: a host function handed the
   operands' buffers that launches the suite's two kernels (OpenCL/linear-algebra/kernels/bicg/
   bicg.cl, as written) on the worker's queue as the suite's host code does: 1-D, groups of
   256, bicgKernel1 over the nx rows (q = A p), then bicgKernel2 over the ny columns
   (s = A^T r). */
#include "pb_opencl.h"

extern struct starpu_opencl_program bicg_program; /* bicg.cl, built for every device */
extern cl_kernel bicg_kernel1_k;                  /* bicgKernel1 on this worker's device */
extern cl_command_queue bicg_queue;               /* this worker's queue */

void bicg_opencl(int nx, int ny, cl_mem A, cl_mem s, cl_mem q, cl_mem p, cl_mem r) {
  const char* v = "bicg_opencl";
  const size_t local = 256;
  PB_ARG(v, bicg_kernel1_k, 0, A);
  PB_ARG(v, bicg_kernel1_k, 1, p);
  PB_ARG(v, bicg_kernel1_k, 2, q);
  PB_ARG(v, bicg_kernel1_k, 3, nx);
  PB_ARG(v, bicg_kernel1_k, 4, ny);
  pb_launch(bicg_queue, bicg_kernel1_k, 1, &nx, &local, v);
  cl_kernel k2 = pb_kernel(&bicg_program, "bicgKernel2", v);
  PB_ARG(v, k2, 0, A);
  PB_ARG(v, k2, 1, r);
  PB_ARG(v, k2, 2, s);
  PB_ARG(v, k2, 3, nx);
  PB_ARG(v, k2, 4, ny);
  pb_launch(bicg_queue, k2, 1, &ny, &local, v);
  clReleaseKernel(k2);
}
