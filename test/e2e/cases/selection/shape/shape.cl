// The OpenCL variant of shape, for wide matrices (a.cols >= 64): b = a + 1, one work-item
// per element of b.
__kernel void shape_kernel(__global const float* a, int a_rows, int a_cols, int a_ld,
                           __global float* b, int b_rows, int b_cols, int b_ld) {
  (void)a_rows;
  (void)a_cols;
  const int i = get_global_id(0);
  if (i >= b_rows * b_cols) return;
  const int r = i / b_cols, c = i % b_cols;
  b[r * b_ld + c] = a[r * a_ld + c] + 1.0f;
}
