// C = alpha * A * B + beta * C, one work-item per element of C: column j in dimension 0,
// row i in dimension 1, the way GPU codes for row-major matrices index (PolyBench-ACC's
// kernels do). The launch is rounded up to whole work-groups: the bounds check matters.
__kernel void gemm(__global const float* a, __global const float* b, __global float* c, float alpha,
                   float beta, int ni, int nj, int nk) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < ni && j < nj) {
    float sum = 0.0f;
    for (int k = 0; k < nk; k++) sum += a[i * nk + k] * b[k * nj + j];
    c[i * nj + j] = alpha * sum + beta * c[i * nj + j];
  }
}
