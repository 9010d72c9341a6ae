// nw_diagonal, OpenCL variant (skeleton from compose -generateCompFiles, filled in): one
// work-group of 16 per block (blocks taken round-robin over the groups), the block's cells
// computed in local memory as a wavefront of 31 anti-diagonals, as in Rodinia.
// PEPPHER_GLOBAL_SIZE(16 * (diag + 1)) PEPPHER_LOCAL_SIZE(16)
#define B 16

__kernel void nw_diagonal_opencl(__global int* score, int rows, int cols, int lds,
                                 __global const int* ref, int ref_rows, int ref_cols, int ldr,
                                 int diag, int penalty) {
  (void)cols;
  (void)ref_rows;
  (void)ref_cols;
  __local int t[B + 1][B + 1];
  __local int sim[B][B];
  const int nblocks = (rows - 1) / B;
  const int first = max(0, diag - nblocks + 1);
  const int count = min(diag, nblocks - 1) - first + 1;
  const int tx = (int)get_local_id(0);
  for (int b = (int)get_group_id(0); b < count; b += (int)get_num_groups(0)) {  // uniform
    const int row0 = (first + b) * B;         // score row above the block
    const int col0 = (diag - first - b) * B;  // score column left of the block
    t[0][tx + 1] = score[row0 * lds + col0 + 1 + tx];
    t[tx + 1][0] = score[(row0 + 1 + tx) * lds + col0];
    if (tx == 0) t[0][0] = score[row0 * lds + col0];
    for (int y = 0; y < B; ++y) sim[y][tx] = ref[(row0 + 1 + y) * ldr + col0 + 1 + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 0; w < 2 * B - 1; ++w) {  // cell (y, x) with (y - 1) + (x - 1) == w
      const int x = tx + 1, y = w - tx + 1;
      if (y >= 1 && y <= B) {
        const int d = t[y - 1][x - 1] + sim[y - 1][x - 1];
        t[y][x] = max(d, max(t[y][x - 1] - penalty, t[y - 1][x] - penalty));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int y = 0; y < B; ++y) score[(row0 + 1 + y) * lds + col0 + 1 + tx] = t[y + 1][tx + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
