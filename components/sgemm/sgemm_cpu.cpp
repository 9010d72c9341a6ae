// sgemm, sequential CPU variant: C = A * B on row-major peppher::Matrix views over the
// worker's copies (element (i, j) at data()[i * ld() + j]), row by row (sgemm_rows.h).
#include <peppher/runtime.h>

#include <cstddef>

#include "sgemm_rows.h"

void sgemm_cpu(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
               peppher::Matrix<float>& C) {
  const float* a = A.data();
  const float* b = B.data();
  float* c = C.data();
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  for (std::size_t i = 0; i < C.rows(); ++i)
    sgemm::multiply_row(a + i * A.ld(), b, B.ld(), c + i * C.ld(), C.cols(), A.cols());
}
