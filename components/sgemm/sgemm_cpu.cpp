// sgemm, sequential CPU variant: C = A * B on row-major peppher::Matrix views over the
// worker's copies (element (i, j) at data()[i * ld() + j]); i-k-j loop order for locality.
#include <peppher/runtime.h>

#include <cstddef>

void sgemm_cpu(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
               peppher::Matrix<float>& C) {
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
