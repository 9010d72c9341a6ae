// sgrad, OpenCL variant: C = J + 2 over the task's row block, the 2 from iters rounds.
__kernel void sgrad_opencl(__global const float* J, int j_rows, int j_cols, int j_ld,
                           __global float* C, int rows, int cols, int ld, int iters) {
  for (int i = get_global_id(0); i < rows * cols; i += get_global_size(0)) {
    const int r = i / cols, c = i % cols;
    float v = J[r * j_ld + c];
    for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
    C[r * ld + c] = J[r * j_ld + c] + v;
  }
}
