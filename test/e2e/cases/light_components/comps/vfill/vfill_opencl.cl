// vfill on OpenCL, one work-item per element.
__kernel void vfill_opencl(__global float* x, int n, float first, float step) {
  const int i = get_global_id(0);
  if (i < n) x[i] = first + (float)i * step;
}
