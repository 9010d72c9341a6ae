// offload on an OpenCL device: x[i] += 1.
__kernel void offload_opencl(__global float* x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] += 1.0f;
}
