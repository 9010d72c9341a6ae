// prow_sum, CPU variant: A is a block of rows, y the matching block of the result.
#include <peppher/runtime.h>

void prow_sum_cpu(const peppher::Matrix<float>& A, peppher::Vector<float>& y, int) {
  const float* a = A.data();
  float* out = y.data();
  for (size_t i = 0; i < A.rows(); ++i) {
    float s = 0;
    for (size_t j = 0; j < A.cols(); ++j) s += a[i * A.ld() + j];
    out[i] = s;
  }
}
