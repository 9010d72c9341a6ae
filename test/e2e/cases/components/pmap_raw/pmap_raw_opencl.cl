// pmap_raw, OpenCL variant: n is the block's length.
__kernel void pmap_raw_opencl(__global const float* x, __global float* y, int n, int bs,
                              __global const float* coef) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) y[i] = coef[0] * x[i] + coef[1];
}
