__kernel void stencil_opencl(__global const float* in, int in_rows, int in_cols, int in_ld, __global float* out, int rows, int cols, int ld) {}
