// cfd_time_step, OpenCL variant: one work-item per variable (grid stride), cfd::time_step of
// cfd_element.h with contraction into fma off.
#pragma OPENCL FP_CONTRACT OFF

__kernel void cfd_time_step_opencl(__global const float* old_variables, int old_variables_size,
                                   __global const float* step_factors, int step_factors_size,
                                   __global const float* fluxes, int fluxes_size,
                                   __global float* variables, int n, int stage) {
  (void)old_variables_size;
  (void)step_factors_size;
  (void)fluxes_size;
  for (int k = (int)get_global_id(0); k < n; k += (int)get_global_size(0))
    variables[k] = old_variables[k] + step_factors[k / 5] / (float)(3 + 1 - stage) * fluxes[k];
}
