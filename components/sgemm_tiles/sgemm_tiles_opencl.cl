// sgemm_tiles, OpenCL variant: one tile of C = A * B (A's row block, B's column block), the
// kernel of components/sgemm/sgemm_opencl.cl: each matrix followed by rows, cols, ld (the
// blocks' ld is the whole matrix's), then `tile`, which sized the blocks (unused here).
// PEPPHER_GLOBAL_SIZE(65536) PEPPHER_LOCAL_SIZE(256)
#define TILE 16

__kernel void sgemm_tiles_opencl(__global const float* A, int a_rows, int a_cols, int a_ld,
                                 __global const float* B, int b_rows, int b_cols, int b_ld,
                                 __global float* C, int c_rows, int c_cols, int c_ld, int tile) {
  // Never read or write outside any operand, even if the shapes disagree.
  const int m = min(c_rows, a_rows);
  const int n = min(c_cols, b_cols);
  const int k = min(a_cols, b_rows);

  if (get_local_size(0) != TILE * TILE) {  // uniform for the launch
    const int total = m * n;
    const int stride = (int)get_global_size(0);
    for (int idx = (int)get_global_id(0); idx < total; idx += stride) {
      const int i = idx / n;
      const int j = idx % n;
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += A[i * a_ld + p] * B[p * b_ld + j];
      C[i * c_ld + j] = sum;
    }
    return;
  }

  __local float a_tile[TILE][TILE];
  __local float b_tile[TILE][TILE];
  const int lid = (int)get_local_id(0);
  const int ty = lid / TILE;
  const int tx = lid % TILE;
  const int tiles_x = (n + TILE - 1) / TILE;
  const int tiles = ((m + TILE - 1) / TILE) * tiles_x;
  const int groups = (int)get_num_groups(0);

  for (int t = (int)get_group_id(0); t < tiles; t += groups) {  // uniform per group
    const int i = (t / tiles_x) * TILE + ty;
    const int j = (t % tiles_x) * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
      const int pa = p0 + tx;  // A tile: row i, column pa
      const int pb = p0 + ty;  // B tile: row pb, column j
      a_tile[ty][tx] = (i < m && pa < k) ? A[i * a_ld + pa] : 0.0f;
      b_tile[ty][tx] = (pb < k && j < n) ? B[pb * b_ld + j] : 0.0f;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int q = 0; q < TILE; ++q) sum += a_tile[ty][q] * b_tile[q][tx];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < m && j < n) C[i * c_ld + j] = sum;
  }
}
