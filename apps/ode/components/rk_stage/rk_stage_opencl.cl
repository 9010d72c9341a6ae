// rk_stage, OpenCL variant: y_stage = y + c k, one work-item per point (grid stride), no fma.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void rk_stage_opencl(__global const double* y, int y_size, __global const double* k,
                              int k_size, __global double* y_stage, int n, double c) {
  (void)y_size;
  (void)k_size;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
    y_stage[i] = y[i] + c * k[i];
}
