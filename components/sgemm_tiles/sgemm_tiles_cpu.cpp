// sgemm_tiles, sequential CPU variant: one tile of C = A * B (the call's task (i, j) gets C's
// tile, A's row block i and B's column block j as row-major views; element (i, j) at
// data()[i * ld() + j]). The loop of components/sgemm/sgemm_cpu.cpp; `tile` sized the blocks.
#include <peppher/runtime.h>

#include <cstddef>

void sgemm_tiles_cpu(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                     peppher::Matrix<float>& C, int /*tile*/) {
  const std::size_t m = C.rows();
  const std::size_t n = C.cols();
  const std::size_t k = A.cols();
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  const float* a = A.data();
  const float* b = B.data();
  float* c = C.data();
  const std::size_t lda = A.ld();
  const std::size_t ldb = B.ld();
  const std::size_t ldc = C.ld();
  for (std::size_t i = 0; i < m; ++i) {
    float* c_row = c + i * ldc;
    for (std::size_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    for (std::size_t p = 0; p < k; ++p) {
      const float a_ip = a[i * lda + p];
      const float* b_row = b + p * ldb;
      for (std::size_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}
