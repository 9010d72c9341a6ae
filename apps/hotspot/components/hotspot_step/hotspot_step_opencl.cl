// hotspot_step, OpenCL variant: one work-item per cell of temp_out (grid stride, so any global
// size works). Contraction into fma is off so that results match the CPU variants bit for bit.
#pragma OPENCL FP_CONTRACT OFF

__kernel void hotspot_step_opencl(__global const float* power, int p_rows, int p_cols, int p_ld,
                                  __global const float* temp_in, int t_rows, int t_cols, int t_ld,
                                  __global float* temp_out, int rows, int cols, int o_ld,
                                  float step_div_cap, float rx_1, float ry_1, float rz_1,
                                  float amb_temp) {
  (void)p_rows;
  (void)p_cols;
  (void)t_rows;
  (void)t_cols;
  const int total = rows * cols;
  for (int idx = (int)get_global_id(0); idx < total; idx += (int)get_global_size(0)) {
    const int r = idx / cols;
    const int c = idx % cols;
    const float center = temp_in[r * t_ld + c];
    const float north = temp_in[(r > 0 ? r - 1 : r) * t_ld + c];
    const float south = temp_in[(r + 1 < rows ? r + 1 : r) * t_ld + c];
    const float west = temp_in[r * t_ld + (c > 0 ? c - 1 : c)];
    const float east = temp_in[r * t_ld + (c + 1 < cols ? c + 1 : c)];
    const float delta =
        step_div_cap * (power[r * p_ld + c] + (south + north - 2.0f * center) * ry_1 +
                        (east + west - 2.0f * center) * rx_1 + (amb_temp - center) * rz_1);
    temp_out[r * o_ld + c] = center + delta;
  }
}
