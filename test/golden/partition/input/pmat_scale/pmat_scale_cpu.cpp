// pmat_scale, CPU variant: m is a view of one 2-D block (rows, cols, the parent's ld).
#include <peppher/runtime.h>

void pmat_scale_cpu(peppher::Matrix<float>& m, int, int, float a) {
  float* p = m.data();
  for (size_t i = 0; i < m.rows(); ++i)
    for (size_t j = 0; j < m.cols(); ++j) p[i * m.ld() + j] *= a;
}
