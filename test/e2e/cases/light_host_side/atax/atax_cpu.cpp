// atax, sequential: tmp = A x, then y = A^T tmp.
void atax_cpu(const float* A, const float* x, float* y, float* tmp, int nx, int ny) {
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * tmp[i];
  }
}
