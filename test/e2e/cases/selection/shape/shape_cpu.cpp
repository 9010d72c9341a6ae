// The CPU variant of shape, for narrow matrices (a.cols < 64): b = a + 1.
#include <peppher/runtime.h>

void shape_cpu(const peppher::Matrix<float>& a, peppher::Matrix<float>& b) {
  for (size_t r = 0; r < b.rows(); ++r)
    for (size_t c = 0; c < b.cols(); ++c)
      b.data()[r * b.ld() + c] = a.data()[r * a.ld() + c] + 1.0f;
}
