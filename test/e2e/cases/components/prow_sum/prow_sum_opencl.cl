// prow_sum, OpenCL variant: one work-item per row of the block.
__kernel void prow_sum_opencl(__global const float* A, int rows, int cols, int ld,
                              __global float* y, int y_size, int br) {
  for (int i = get_global_id(0); i < rows; i += get_global_size(0)) {
    float s = 0;
    for (int j = 0; j < cols; ++j) s += A[i * ld + j];
    y[i] = s;
  }
}
