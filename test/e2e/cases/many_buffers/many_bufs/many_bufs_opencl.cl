// many_bufs, OpenCL variant: twelve buffers, each Vector followed by its size and each
// Matrix by its rows, cols and leading dimension.
__kernel void many_bufs_opencl(__global const float* a, int a_size, __global const float* b,
                               int b_size, __global const float* m, int m_rows, int m_cols,
                               int m_ld, __global const float* c, __global const int* d,
                               __global float* e, int e_size, __global float* f, int f_size,
                               __global float* g, __global float* h, __global float* o, int o_rows,
                               int o_cols, int o_ld, __global const float* k, __global int* r,
                               int r_size, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    e[i] = a[i] + b[i];
    f[i] += m[i * m_ld] * k[0];
    g[i] = c[i] * (float)d[i];
    h[i] += m[i * m_ld + 1] + k[1];
    o[i * o_ld] = a[i] - c[i];
    o[i * o_ld + 1] = 2.0f * b[i];
    r[i] += d[i];
  }
}
