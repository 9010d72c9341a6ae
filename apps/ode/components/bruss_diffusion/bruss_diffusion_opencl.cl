// bruss_diffusion, OpenCL variant: one work-item per point (grid stride). Contraction into fma
// is off so that results match the CPU variants bit for bit.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void bruss_diffusion_opencl(__global const double* u, int u_size, __global double* du,
                                     int n, double alpha, double boundary) {
  (void)u_size;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
    const double left = i > 0 ? u[i - 1] : boundary;
    const double right = i + 1 < n ? u[i + 1] : boundary;
    du[i] = alpha * (left - 2.0 * u[i] + right);
  }
}
