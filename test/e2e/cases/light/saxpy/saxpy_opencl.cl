// saxpy, OpenCL variant: arguments follow the interface; grid-stride over n.
__kernel void saxpy_opencl(float a, __global const float* x, __global float* y, int n) {
  const int stride = (int)get_global_size(0);
  for (int i = (int)get_global_id(0); i < n; i += stride) y[i] = a * x[i] + y[i];
}
