// cfd_copy, OpenCL variant: dst = src, one work-item per element (grid stride).
__kernel void cfd_copy_opencl(__global const float* src, int src_size, __global float* dst, int n) {
  (void)src_size;
  for (int k = (int)get_global_id(0); k < n; k += (int)get_global_size(0)) dst[k] = src[k];
}
