// sgemm, OpenMP variant: C = A * B on row-major peppher::Matrix views, rows of C shared by
// the team of threads the generated OPENMP wrapper sets up (each row: sgemm_rows.h).
#include <peppher/runtime.h>

#include <cstddef>

#include "sgemm_rows.h"

void sgemm_openmp(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                  peppher::Matrix<float>& C) {
  const float* a = A.data();
  const float* b = B.data();
  float* c = C.data();
  const std::size_t lda = A.ld(), ldb = B.ld(), ldc = C.ld(), n = C.cols(), k = A.cols();
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  const long long rows = static_cast<long long>(C.rows());
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < rows; ++i) {
    const auto row = static_cast<std::size_t>(i);
    sgemm::multiply_row(a + row * lda, b, ldb, c + row * ldc, n, k);
  }
}
