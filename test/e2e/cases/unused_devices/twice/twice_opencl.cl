// twice, OpenCL variant: y[i] = 2 x[i], grid-stride over n.
__kernel void twice_opencl(__global const float* x, __global float* y, int n) {
  const int stride = (int)get_global_size(0);
  for (int i = (int)get_global_id(0); i < n; i += stride) y[i] = 2 * x[i];
}
