// bruss_reaction, OpenCL variant: one work-item per point (grid stride), the same expression as
// ode_point.h with contraction into fma off.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void bruss_reaction_opencl(__global const double* u, int u_size, __global const double* v,
                                    int v_size, __global double* du, int n, __global double* dv,
                                    int dv_size, double a, double b) {
  (void)u_size;
  (void)v_size;
  (void)dv_size;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
    const double uuv = u[i] * u[i] * v[i];
    du[i] = du[i] + (a + uuv - (b + 1.0) * u[i]);
    dv[i] = dv[i] + (b * u[i] - uuv);
  }
}
