// pathfinder_row, OpenCL variant (skeleton from compose -generateCompFiles, filled in): one
// work-item per column of the row (grid stride); containers come with their extents.
__kernel void pathfinder_row_opencl(__global const int* wall, int wall_rows, int wall_cols,
                                    int wall_ld, __global const int* src, int src_size,
                                    __global int* dst, int cols, int row) {
  (void)wall_rows;
  (void)wall_cols;
  (void)src_size;
  __global const int* w = wall + (long)row * wall_ld;
  for (int c = (int)get_global_id(0); c < cols; c += (int)get_global_size(0)) {
    int best = src[c];
    if (c > 0) best = min(best, src[c - 1]);
    if (c + 1 < cols) best = min(best, src[c + 1]);
    dst[c] = w[c] + best;
  }
}
