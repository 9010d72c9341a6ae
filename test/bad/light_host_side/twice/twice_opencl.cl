// PEPPHER_KERNEL(twice_opencl)
__kernel void twice_opencl(__global float* x, int n) {
  const int i = get_global_id(0);
  if (i < n) x[i] *= 2;
}
