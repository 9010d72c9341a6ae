// sgemm_tiles, OpenMP variant: one tile of C = A * B (A's row block, B's column block) on
// row-major views, rows of the tile shared by the team the generated OPENMP wrapper sets up;
// each row with sgemm's own loop (../sgemm/sgemm_rows.h).
#include <peppher/runtime.h>

#include <cstddef>

#include "../sgemm/sgemm_rows.h"

void sgemm_tiles_openmp(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                        peppher::Matrix<float>& C, int /*tile*/) {
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
