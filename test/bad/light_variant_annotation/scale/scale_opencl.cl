// A value without parentheses, build flags for a kernel, a launch size given twice.
// PEPPHER_LOCAL_SIZE 16
// PEPPHER_FLAGS(-O3)
// PEPPHER_GLOBAL_SIZE(n) PEPPHER_GLOBAL_SIZE(2 * n)
__kernel void scale_opencl(__global float* x, int n) {
  const int i = get_global_id(0);
  if (i < n) x[i] *= 2;
}
