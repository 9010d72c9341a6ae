// rk_update, OpenCL variant: y_next = y + h/6 (k1 + 2 k2 + 2 k3 + k4), one work-item per point
// (grid stride), the same expression as ode_point.h with contraction into fma off.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void rk_update_opencl(__global const double* y, int y_size, __global const double* k1,
                               int k1_size, __global const double* k2, int k2_size,
                               __global const double* k3, int k3_size, __global const double* k4,
                               int k4_size, __global double* y_next, int n, double h) {
  (void)y_size;
  (void)k1_size;
  (void)k2_size;
  (void)k3_size;
  (void)k4_size;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
    y_next[i] = y[i] + (h / 6.0) * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}
