// sgemm, OpenMP variant: C = A * B on row-major peppher::Matrix views, rows of C shared by
// the team of threads the generated OPENMP wrapper sets up; i-k-j loop order per row.
#include <peppher/runtime.h>

#include <cstddef>

void sgemm_openmp(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
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
  const long long rows = static_cast<long long>(m);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < rows; ++i) {
    float* c_row = c + static_cast<std::size_t>(i) * ldc;
    const float* a_row = a + static_cast<std::size_t>(i) * lda;
    for (std::size_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    for (std::size_t p = 0; p < k; ++p) {
      const float a_ip = a_row[p];
      const float* b_row = b + p * ldb;
      for (std::size_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}
