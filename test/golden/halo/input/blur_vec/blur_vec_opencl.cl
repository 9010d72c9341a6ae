// blur_vec, OpenCL variant: y[i] = x[i-h] + 2 x[i] + x[i+h] over its block (one work-item
// per element, grid stride). x's halo arrives in x_before / x_after, x_halo_before and
// x_halo_after elements (0 at an end of the vector, where x[i] itself stands in).
__kernel void blur_vec_opencl(__global const float* x, int n, __global const float* x_before,
                              __global const float* x_after, int x_halo_before, int x_halo_after,
                              __global float* y, int y_size, int bs, int h) {
  (void)y_size;
  (void)bs;
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
    const int l = i - h, r = i + h;
    const float left = l >= 0 ? x[l] : l >= -x_halo_before ? x_before[x_halo_before + l] : x[i];
    const float right = r < n ? x[r] : r < n + x_halo_after ? x_after[r - n] : x[i];
    y[i] = left + 2.0f * x[i] + right;
  }
}
