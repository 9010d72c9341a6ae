// ptiles, OpenCL variant: each block as buffer, rows, cols and leading dimension.
__kernel void ptiles_opencl(__global const float* a, int a_rows, int a_cols, int a_ld,
                            __global const float* b, int b_rows, int b_cols, int b_ld,
                            __global float* c, int rows, int cols, int ld, int t) {
  for (int k = get_global_id(0); k < rows * cols; k += get_global_size(0)) {
    float sum = 0.0f;
    for (int p = 0; p < a_cols; ++p) sum += a[(k / cols) * a_ld + p] * b[p * b_ld + k % cols];
    c[(k / cols) * ld + k % cols] = sum;
  }
}
