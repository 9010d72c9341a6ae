// ptiles, CPU variant: c is one tile, a its row block, b its column block (views).
#include <peppher/runtime.h>

void ptiles_cpu(const peppher::Matrix<float>& a, const peppher::Matrix<float>& b,
                peppher::Matrix<float>& c, int) {
  for (size_t i = 0; i < c.rows(); ++i)
    for (size_t j = 0; j < c.cols(); ++j) {
      float sum = 0.0f;
      for (size_t p = 0; p < a.cols(); ++p)
        sum += a.data()[i * a.ld() + p] * b.data()[p * b.ld() + j];
      c.data()[i * c.ld() + j] = sum;
    }
}
