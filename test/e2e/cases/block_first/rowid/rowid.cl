// rowid, OpenCL variant: the block's buffer and extents, then `first`, its first row.
__kernel void rowid_opencl(__global float* M, int rows, int cols, int ld, int first) {
  const int i = (int)get_global_id(0);
  if (i >= rows * cols) return;
  const int r = i / cols, c = i % cols;
  M[r * ld + c] = (float)((first + r) * 100 + c);
}
