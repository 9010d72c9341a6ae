// row_axpy, CPU variant: m(i, j) += a * s[j] over the rows, then s[j] += 1.
#include <peppher/runtime.h>

void row_axpy_cpu(peppher::Matrix<float>& m, peppher::Vector<float>& s, float a) {
  float* p = m.data();
  float* v = s.data();
  for (size_t j = 0; j < m.cols(); ++j) {
    for (size_t i = 0; i < m.rows(); ++i) p[i * m.ld() + j] += a * v[j];
    v[j] += 1.0f;
  }
}
