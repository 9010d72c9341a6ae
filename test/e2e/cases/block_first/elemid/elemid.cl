// elemid, OpenCL variant: the block's buffer and size, then `first`, its first element.
__kernel void elemid_opencl(__global int* v, int v_size, int first) {
  const int i = (int)get_global_id(0);
  if (i < v_size) v[i] = first + i;
}
