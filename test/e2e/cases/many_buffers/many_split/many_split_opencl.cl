// many_split, OpenCL variant: one block of each of twelve buffers; n is the block's length.
__kernel void many_split_opencl(__global const float* x0, int x0_size, __global const float* x1,
                                int x1_size, __global const float* x2, int x2_size,
                                __global const float* x3, int x3_size, __global const float* x4,
                                int x4_size, __global const float* x5, int x5_size,
                                __global const float* u, __global float* y0, int y0_size,
                                __global float* y1, int y1_size, __global float* z, int z_size,
                                __global float* w, __global float* q, int q_rows, int q_cols,
                                int q_ld, int n, int bs) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    y0[i] = x0[i] + x1[i] + x2[i];
    y1[i] = x3[i] * x4[i] - x5[i];
    z[i] += u[i];
    w[i] = x0[i] - u[i];
    q[i * q_ld] += x1[i];
    q[i * q_ld + 1] += x1[i];
  }
}
