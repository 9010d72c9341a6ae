// The sequential 3x3 convolution, as PolyBench's reference loop nest.
void conv2d_cpu(const float* A, float* B, int ni, int nj) {
  for (int i = 1; i < ni - 1; ++i) {
    for (int j = 1; j < nj - 1; ++j) {
      B[i * nj + j] = 0.2f * A[(i - 1) * nj + j - 1] + 0.5f * A[i * nj + j - 1] -
                      0.8f * A[(i + 1) * nj + j - 1] - 0.3f * A[(i - 1) * nj + j] +
                      0.6f * A[i * nj + j] - 0.9f * A[(i + 1) * nj + j] +
                      0.4f * A[(i - 1) * nj + j + 1] + 0.7f * A[i * nj + j + 1] +
                      0.1f * A[(i + 1) * nj + j + 1];
    }
  }
}
