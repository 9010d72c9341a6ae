// sgemm_tiles, OpenMP variant: one tile of C = A * B (A's row block, B's column block) on
// row-major views, rows of the tile shared by the team the generated OPENMP wrapper sets up;
// the loop of components/sgemm/sgemm_openmp.cpp.
#include <peppher/runtime.h>

#include <cstddef>

void sgemm_tiles_openmp(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
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
