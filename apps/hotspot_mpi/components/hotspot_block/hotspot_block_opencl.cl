// hotspot_block, OpenCL variant: apps/hotspot's kernel over the rows of one block, one
// work-item per cell (grid stride, so any global size works). temp_in's halo arrives in two
// more buffers (docs/FORMAT.md "Halos"): temp_in_above holds the row above the block,
// temp_in_below the row below it, with their row counts (0 at the chip's top or bottom edge,
// where the cell update uses the edge row itself, as the CPU variant does). Contraction into
// fma is off so that results match the CPU variant bit for bit.
#pragma OPENCL FP_CONTRACT OFF

__kernel void hotspot_block_opencl(__global const float* power, int p_rows, int p_cols, int p_ld,
                                   __global const float* temp_in, int t_rows, int t_cols, int t_ld,
                                   __global const float* temp_in_above,
                                   __global const float* temp_in_below, int temp_in_halo_above,
                                   int temp_in_halo_below, __global float* temp_out, int o_rows,
                                   int o_cols, int o_ld, int block_rows, float step_div_cap,
                                   float rx_1, float ry_1, float rz_1, float amb_temp) {
  (void)p_rows;
  (void)p_cols;
  (void)o_rows;
  (void)o_cols;
  (void)block_rows;
  const int total = t_rows * t_cols;
  for (int idx = (int)get_global_id(0); idx < total; idx += (int)get_global_size(0)) {
    const int r = idx / t_cols;
    const int c = idx % t_cols;
    __global const float* row = temp_in + r * t_ld;
    // The halo row above the block is row -1 (temp_in_above's only row with a halo of 1).
    __global const float* up = r > 0 ? row - t_ld : temp_in_halo_above > 0 ? temp_in_above : row;
    __global const float* down = r + 1 < t_rows           ? row + t_ld
                                 : temp_in_halo_below > 0 ? temp_in_below
                                                          : row;
    const float center = row[c];
    const float north = up[c];
    const float south = down[c];
    const float west = row[c > 0 ? c - 1 : c];
    const float east = row[c + 1 < t_cols ? c + 1 : c];
    const float delta =
        step_div_cap * (power[r * p_ld + c] + (south + north - 2.0f * center) * ry_1 +
                        (east + west - 2.0f * center) * rx_1 + (amb_temp - center) * rz_1);
    temp_out[r * o_ld + c] = center + delta;
  }
}
