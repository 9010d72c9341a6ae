// heat_rows, OpenCL variant: one work-item per cell of its block (grid stride, launched over
// the block's cells). temp_in's halo arrives in two more buffers, t_above and t_below, with
// their row counts (0 at the chip's top or bottom); halo rows are t_cols elements apart.
// Contraction into fma is off so that results match the CPU variant bit for bit.
#pragma OPENCL FP_CONTRACT OFF

__kernel void heat_rows_opencl(__global const float* power, int p_rows, int p_cols, int p_ld,
                               __global const float* t, int t_rows, int t_cols, int t_ld,
                               __global const float* t_above, __global const float* t_below,
                               int t_halo_above, int t_halo_below, __global float* out, int o_rows,
                               int o_cols, int o_ld, int bs, int first, int split_at,
                               float step_div_cap, float rx_1, float ry_1, float rz_1, float amb) {
  (void)p_rows;
  (void)p_cols;
  (void)o_rows;
  (void)o_cols;
  (void)bs;
  (void)first;
  (void)split_at;
  const int total = t_rows * t_cols;
  for (int idx = (int)get_global_id(0); idx < total; idx += (int)get_global_size(0)) {
    const int r = idx / t_cols;
    const int c = idx % t_cols;
    __global const float* row = t + r * t_ld;
    __global const float* up = r > 0 ? row - t_ld : t_halo_above > 0 ? t_above : row;
    __global const float* down = r + 1 < t_rows ? row + t_ld : t_halo_below > 0 ? t_below : row;
    const float center = row[c];
    const float north = up[c];
    const float south = down[c];
    const float west = row[c > 0 ? c - 1 : c];
    const float east = row[c + 1 < t_cols ? c + 1 : c];
    const float delta =
        step_div_cap * (power[r * p_ld + c] + (south + north - 2.0f * center) * ry_1 +
                        (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
    out[r * o_ld + c] = center + delta;
  }
}
