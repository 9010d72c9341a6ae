// cfd_step_factor, OpenCL variant: one work-item per element (grid stride), the operations of
// cfd::step_factor (cfd_element.h) in the same order, with contraction into fma off.
#pragma OPENCL FP_CONTRACT OFF
#define GAMMA 1.4f

__kernel void cfd_step_factor_opencl(__global const float* variables, int variables_size,
                                     __global const float* areas, int areas_size,
                                     __global float* step_factors, int n) {
  (void)variables_size;
  (void)areas_size;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
    __global const float* u = variables + i * 5;
    const float density = u[0];
    const float vx = u[1] / density, vy = u[2] / density, vz = u[3] / density;
    const float speed_sqd = vx * vx + vy * vy + vz * vz;
    const float pressure = (GAMMA - 1.0f) * (u[4] - 0.5f * density * speed_sqd);
    const float sound = sqrt(GAMMA * pressure / density);
    step_factors[i] = 0.5f / (sqrt(areas[i]) * (sqrt(speed_sqd) + sound));
  }
}
