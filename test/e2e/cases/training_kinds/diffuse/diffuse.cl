// diffuse, OpenCL variant: one work-item walks all n * n elements with 64 dependent
// multiply-adds each, so its time is proportional to n * n (the training test compares the
// trained times at both ends of n's range). J is unchanged; q = n * n.
__kernel void diffuse_opencl(__global float* J, int rows, int cols, int ld, __global float* q,
                             int n) {
  (void)n;
  float count = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      float x = J[r * ld + c];
      for (int k = 0; k < 64; ++k) x = x * 0.999f + 0.001f;
      count += x > -1.0f ? 1.0f : 0.0f;
    }
  }
  q[0] = count;
}
