// The OpenCL variant of grow: the same steps per element as grow_cpu.
__kernel void grow_kernel(__global float* x, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float v = x[i];
  for (int s = 0; s < 200; ++s) v = v * 0.999f + 0.001f;
  x[i] = v + 1.0f;
}
