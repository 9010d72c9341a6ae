// lud_internal, OpenCL variant: one work-item per element of the trailing matrix (grid stride),
// a[r][c] -= sum over the block's k of L[r][k] U[k][c], summed in the CPU variants' order.
// PEPPHER_GLOBAL_SIZE(16384)
#pragma OPENCL FP_CONTRACT OFF
#define B 16

__kernel void lud_internal_opencl(__global float* a, int rows, int cols, int ld, int offset) {
  (void)cols;
  const int first = offset + B, m = rows - first;
  for (int t = (int)get_global_id(0); t < m * m; t += (int)get_global_size(0)) {
    const int r = first + t / m, c = first + t % m;
    float sum = 0.0f;
    for (int k = 0; k < B; ++k) sum += a[r * ld + offset + k] * a[(offset + k) * ld + c];
    a[r * ld + c] -= sum;
  }
}
