// row_axpy, OpenCL variant: one work-item per column j (it alone updates s[j]).
__kernel void row_axpy_opencl(__global float* m, int rows, int cols, int ld, __global float* s,
                              int s_size, float a) {
  for (int j = get_global_id(0); j < cols; j += get_global_size(0)) {
    for (int i = 0; i < rows; ++i) m[i * ld + j] += a * s[j];
    s[j] += 1.0f;
  }
}
