// supdate, OpenCL variant: J = C / 2 + 1 over the task's row block, the 1 from 4 x iters
// rounds (the OpenCL device is the slower worker here).
__kernel void supdate_opencl(__global const float* C, int c_rows, int c_cols, int c_ld,
                             __global float* J, int rows, int cols, int ld, int iters) {
  for (int i = get_global_id(0); i < rows * cols; i += get_global_size(0)) {
    const int r = i / cols, c = i % cols;
    float v = C[r * c_ld + c];
    for (int k = 0; k < 4 * iters; ++k) v = v * 0.5f + 1.0f;
    J[r * ld + c] = C[r * c_ld + c] * 0.5f + (v - 1.0f);
  }
}
