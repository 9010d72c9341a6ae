// axpy, OpenCL variant: y[i] = a * x[i] + y[i]. Arguments follow the interface; launched
// 1-D over n work-items (y, the first written operand), grid-stride for any global size.
__kernel void axpy_opencl(float a, __global const float* x, __global float* y, int n) {
  const int stride = (int)get_global_size(0);
  for (int i = (int)get_global_id(0); i < n; i += stride) y[i] = a * x[i] + y[i];
}
