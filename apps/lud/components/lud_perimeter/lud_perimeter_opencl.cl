// lud_perimeter, OpenCL variant: work-item t (grid stride) takes column t of the block row right
// of the diagonal block, or row t - m of the block column below it; no fma contraction.
// PEPPHER_GLOBAL_SIZE(2048)
#pragma OPENCL FP_CONTRACT OFF
#define B 16

__kernel void lud_perimeter_opencl(__global float* a, int rows, int cols, int ld, int offset) {
  (void)cols;
  const int first = offset + B, m = rows - first;
  for (int t = (int)get_global_id(0); t < 2 * m; t += (int)get_global_size(0)) {
    if (t < m) {
      const int c = first + t;
      for (int i = 1; i < B; ++i)
        for (int k = 0; k < i; ++k)
          a[(offset + i) * ld + c] -= a[(offset + i) * ld + offset + k] * a[(offset + k) * ld + c];
    } else {
      __global float* row = a + (first + t - m) * ld + offset;
      for (int j = 0; j < B; ++j) {
        for (int k = 0; k < j; ++k) row[j] -= row[k] * a[(offset + k) * ld + offset + j];
        row[j] /= a[(offset + j) * ld + offset + j];
      }
    }
  }
}
