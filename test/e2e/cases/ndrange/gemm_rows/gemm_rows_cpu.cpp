// The sequential gemm of one block of rows (ni: its row count).
void gemm_rows_cpu(const float* A, const float* B, float* C, float alpha, float beta, int ni,
                   int nj, int nk) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++) {
      float sum = 0.0f;
      for (int k = 0; k < nk; k++) sum += A[i * nk + k] * B[k * nj + j];
      C[i * nj + j] = alpha * sum + beta * C[i * nj + j];
    }
  }
}
