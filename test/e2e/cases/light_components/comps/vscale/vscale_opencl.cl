// vscale on OpenCL, one work-item per element.
__kernel void vscale_opencl(__global float* x, int n, float factor) {
  const int i = get_global_id(0);
  if (i < n) x[i] *= factor;
}
