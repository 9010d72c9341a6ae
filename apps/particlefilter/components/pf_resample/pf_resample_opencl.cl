// pf_resample, OpenCL variant: work-item j takes new particle first + j of the block from
// where the cumulative weights first reach u1 + (first + j) / n (a linear search, as Rodinia's
// find_index_kernel).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void pf_resample_opencl(__global const double* cdf, int n, __global const double* x,
                                 int x_size, __global const double* y, int y_size,
                                 __global const double* u1, int first, int block,
                                 __global double* x_new, int m, __global double* y_new,
                                 int y_new_size) {
  (void)x_size;
  (void)y_size;
  (void)block;
  (void)y_new_size;
  const int j = (int)get_global_id(0);
  if (j >= m) return;
  const double u = *u1 + (first + j) / (double)n;
  int i = n - 1;
  for (int k = 0; k < n; ++k)
    if (cdf[k] >= u) {
      i = k;
      break;
    }
  x_new[j] = x[i];
  y_new[j] = y[i];
}
