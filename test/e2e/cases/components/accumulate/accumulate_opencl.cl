// accumulate, OpenCL variant: one work-item; a T& operand arrives as a one-element buffer.
__kernel void accumulate_kernel(__global const float* x, int n, __global float* total,
                                float scale) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += x[i];
  total[0] += scale * sum;
}
