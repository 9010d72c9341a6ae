// bench/first-run: the OpenCL variant of one Jacobi step, one work-item per point (1-D
// over n*n, grid-stride). Arguments follow the interface, each Vector with its size.
__kernel void jacobi_opencl(__global const float* src, int src_size, __global float* dst,
                            int dst_size, int n) {
  const int stride = (int)get_global_size(0);
  for (int k = (int)get_global_id(0); k < n * n; k += stride) {
    const int i = k / n, j = k % n;
    if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
      dst[k] = src[k];
    } else {
      dst[k] = 0.2f * (src[k] + src[k - 1] + src[k + 1] + src[k + n] + src[k - n]);
    }
  }
}
