// sgemm_tiles, sequential CPU variant: one tile of C = A * B (the call's task (i, j) gets C's
// tile, A's row block i and B's column block j as row-major views; element (i, j) at
// data()[i * ld() + j]), row by row with sgemm's own loop; `tile` sized the blocks.
#include <peppher/runtime.h>

#include <cstddef>

#include "../sgemm/sgemm_rows.h"

void sgemm_tiles_cpu(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                     peppher::Matrix<float>& C, int /*tile*/) {
  const float* a = A.data();
  const float* b = B.data();
  float* c = C.data();
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  for (std::size_t i = 0; i < C.rows(); ++i)
    sgemm::multiply_row(a + i * A.ld(), b, B.ld(), c + i * C.ld(), C.cols(), A.cols());
}
