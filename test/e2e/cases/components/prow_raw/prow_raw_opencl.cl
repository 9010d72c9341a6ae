// prow_raw, OpenCL variant: a is the block's rows, rows their count.
__kernel void prow_raw_opencl(__global float* a, int rows, int cols, int bs, float f) {
  for (int k = get_global_id(0); k < rows * cols; k += get_global_size(0))
    a[k] = f * (a[k] + (float)(k % cols));
}
