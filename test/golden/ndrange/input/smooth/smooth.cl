// Each work-group copies its rows' columns (with one more on each side) to local memory.
__kernel void smooth(__global const float* in, int in_rows, int in_cols, int in_ld,
                     __global float* out, __local float* row, int rows, int cols, int ld) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  const int lj = get_local_id(0) + 1;
  __local float* mine = row + get_local_id(1) * (get_local_size(0) + 2);
  if (i < rows && j < cols) mine[lj] = in[i * in_ld + j];
  if (i < rows && lj == 1) mine[0] = j > 0 ? in[i * in_ld + j - 1] : 0.0f;
  if (i < rows && (lj == get_local_size(0) || j == cols - 1))
    mine[lj + 1] = j + 1 < in_cols ? in[i * in_ld + j + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < rows && j < cols) out[i * ld + j] = (mine[lj - 1] + mine[lj] + mine[lj + 1]) / 3.0f;
}
