/* FDTD-2D's OpenCL variant in the original PEPPHER tool's format: a host function handed the
   operands' buffers that launches the suite's three kernels (OpenCL/stencils/fdtd-2d/
   fdtd2d.cl, as written) on the worker's queue for each of the tmax steps, as the suite's host
   code does: 2-D, j = get_global_id(0) over the ny columns and i = get_global_id(1) over the
   nx rows, groups of 32 x 8; fdtd_kernel1 (ey), fdtd_kernel2 (ex), fdtd_kernel3 (hz). The
   in-order queue keeps the steps in order; the wrapper waits for it at the end. */
#include "pb_opencl.h"

extern struct starpu_opencl_program fdtd_program; /* fdtd2d.cl, built for every device */
extern cl_kernel fdtd_kernel1_k;                  /* fdtd_kernel1 on this worker's device */
extern cl_command_queue fdtd_queue;               /* this worker's queue */

void fdtd_2d_opencl(int tmax, int nx, int ny, cl_mem ex, cl_mem ey, cl_mem hz, cl_mem fict) {
  const char* v = "fdtd_2d_opencl";
  const size_t local[2] = {32, 8};
  const int n[2] = {ny, nx};
  cl_kernel k2 = pb_kernel(&fdtd_program, "fdtd_kernel2", v);
  cl_kernel k3 = pb_kernel(&fdtd_program, "fdtd_kernel3", v);
  PB_ARG(v, fdtd_kernel1_k, 0, fict);
  PB_ARG(v, fdtd_kernel1_k, 1, ex);
  PB_ARG(v, fdtd_kernel1_k, 2, ey);
  PB_ARG(v, fdtd_kernel1_k, 3, hz);
  PB_ARG(v, fdtd_kernel1_k, 5, nx);
  PB_ARG(v, fdtd_kernel1_k, 6, ny);
  PB_ARG(v, k2, 0, ex);
  PB_ARG(v, k2, 1, ey);
  PB_ARG(v, k2, 2, hz);
  PB_ARG(v, k2, 3, nx);
  PB_ARG(v, k2, 4, ny);
  PB_ARG(v, k3, 0, ex);
  PB_ARG(v, k3, 1, ey);
  PB_ARG(v, k3, 2, hz);
  PB_ARG(v, k3, 3, nx);
  PB_ARG(v, k3, 4, ny);
  for (int t = 0; t < tmax; t++) {
    PB_ARG(v, fdtd_kernel1_k, 4, t);
    pb_launch(fdtd_queue, fdtd_kernel1_k, 2, n, local, v);
    pb_launch(fdtd_queue, k2, 2, n, local, v);
    pb_launch(fdtd_queue, k3, 2, n, local, v);
  }
  clReleaseKernel(k2);
  clReleaseKernel(k3);
}
