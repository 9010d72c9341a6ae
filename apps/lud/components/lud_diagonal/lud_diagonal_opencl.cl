// lud_diagonal, OpenCL variant: one work-group of 16 (globalSize = localSize = 16), work-item j
// updates element j of U's row i, then of L's column i, with a barrier between the two.
// PEPPHER_GLOBAL_SIZE(16) PEPPHER_LOCAL_SIZE(16)
#pragma OPENCL FP_CONTRACT OFF
#define B 16

__kernel void lud_diagonal_opencl(__global float* a, int rows, int cols, int ld, int offset) {
  (void)rows;
  (void)cols;
  if (get_group_id(0) != 0) return;
  const int j = (int)get_local_id(0);
  __global float* d = a + offset * ld + offset;
  for (int i = 0; i < B; ++i) {
    if (j >= i)
      for (int k = 0; k < i; ++k) d[i * ld + j] -= d[i * ld + k] * d[k * ld + j];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (j > i) {
      for (int k = 0; k < i; ++k) d[j * ld + i] -= d[j * ld + k] * d[k * ld + i];
      d[j * ld + i] /= d[i * ld + i];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
