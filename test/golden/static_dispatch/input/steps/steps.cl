// The chain's OpenCL kernels (one file, one kernel per variant).
__kernel void seed_opencl(__global float* x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] = (float)(i % 7);
}

__kernel void step_a_opencl(__global float* x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] = x[i] * 2.0f + 1.0f;
}

__kernel void step_b_opencl(__global float* x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] = x[i] + 3.0f;
}

__kernel void step_c_opencl(__global float* x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] = x[i] * 0.5f;
}
