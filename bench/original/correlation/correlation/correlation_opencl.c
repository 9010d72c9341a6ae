/* CORRELATION's OpenCL variant in the original PEPPHER tool's format: a host function handed
   the operands' buffers that launches the suite's four kernels (OpenCL/datamining/correlation/
   correlation.cl, as written) on the worker's queue as the suite's host code does: mean_kernel
   and std_kernel over the m columns (groups of 256), reduce_kernel over the n x m data (2-D,
   j = get_global_id(0) over the columns, groups of 32 x 8), corr_kernel over the m columns
   (groups of 256), then symmat[m-1][m-1] = 1. corr_kernel adds to symmat, which the suite's
   host code fills from a zeroed array: here the buffer is zeroed on the device. eps is 0.1,
   the value of the suite's loop nest (kernel_correlation), so that every variant computes the
   same (the suite's OpenCL program passes its own EPS). */
#include "pb_opencl.h"

extern struct starpu_opencl_program corr_program; /* correlation.cl, built for every device */
extern cl_kernel corr_mean_k;                     /* mean_kernel on this worker's device */
extern cl_command_queue corr_queue;               /* this worker's queue */

void correlation_opencl(int m, int n, float float_n, cl_mem data, cl_mem symmat, cl_mem mean,
                        cl_mem stddev) {
  const char* v = "correlation_opencl";
  const size_t local = 256, local2[2] = {32, 8};
  const int n2[2] = {m, n};
  const float eps = 0.1f, one = 1.0f;
  PB_ARG(v, corr_mean_k, 0, mean);
  PB_ARG(v, corr_mean_k, 1, data);
  PB_ARG(v, corr_mean_k, 2, float_n);
  PB_ARG(v, corr_mean_k, 3, m);
  PB_ARG(v, corr_mean_k, 4, n);
  pb_launch(corr_queue, corr_mean_k, 1, &m, &local, v);

  cl_kernel std_k = pb_kernel(&corr_program, "std_kernel", v);
  PB_ARG(v, std_k, 0, mean);
  PB_ARG(v, std_k, 1, stddev);
  PB_ARG(v, std_k, 2, data);
  PB_ARG(v, std_k, 3, float_n);
  PB_ARG(v, std_k, 4, eps);
  PB_ARG(v, std_k, 5, m);
  PB_ARG(v, std_k, 6, n);
  pb_launch(corr_queue, std_k, 1, &m, &local, v);

  cl_kernel reduce_k = pb_kernel(&corr_program, "reduce_kernel", v);
  PB_ARG(v, reduce_k, 0, mean);
  PB_ARG(v, reduce_k, 1, stddev);
  PB_ARG(v, reduce_k, 2, data);
  PB_ARG(v, reduce_k, 3, float_n);
  PB_ARG(v, reduce_k, 4, m);
  PB_ARG(v, reduce_k, 5, n);
  pb_launch(corr_queue, reduce_k, 2, n2, local2, v);

  pb_zero(corr_queue, symmat, m * m, v);
  cl_kernel corr_k = pb_kernel(&corr_program, "corr_kernel", v);
  PB_ARG(v, corr_k, 0, symmat);
  PB_ARG(v, corr_k, 1, data);
  PB_ARG(v, corr_k, 2, m);
  PB_ARG(v, corr_k, 3, n);
  pb_launch(corr_queue, corr_k, 1, &m, &local, v);
  pb_check(clEnqueueWriteBuffer(corr_queue, symmat, CL_FALSE,
                                ((size_t)(m - 1) * m + (m - 1)) * sizeof(float), sizeof one, &one,
                                0, NULL, NULL),
           v, "clEnqueueWriteBuffer");
  pb_check(clFinish(corr_queue), v, "clFinish"); /* `one` is read until the write completes */
  clReleaseKernel(std_k);
  clReleaseKernel(reduce_k);
  clReleaseKernel(corr_k);
}
