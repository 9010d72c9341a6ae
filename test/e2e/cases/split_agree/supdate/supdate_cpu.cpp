// supdate, CPU variant: J = C / 2 + 1 over the task's row block. The 1 is v = v / 2 + 1
// iterated iters times from C (it reaches 2 exactly), minus 1.
#include <peppher/runtime.h>

void supdate_cpu(const peppher::Matrix<float>& C, peppher::Matrix<float>& J, int iters) {
  for (size_t r = 0; r < J.rows(); ++r) {
    for (size_t c = 0; c < J.cols(); ++c) {
      float v = C(r, c);
      for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
      J(r, c) = C(r, c) * 0.5f + (v - 1.0f);
    }
  }
}
