// sgrad, CPU variant: C = J + 2 over the task's row block. The 2 is v = v / 2 + 1 iterated
// 4 x iters times from J (it reaches 2 exactly), so the CPU is the slower worker.
#include <peppher/runtime.h>

void sgrad_cpu(const peppher::Matrix<float>& J, peppher::Matrix<float>& C, int iters) {
  for (size_t r = 0; r < C.rows(); ++r) {
    for (size_t c = 0; c < C.cols(); ++c) {
      float v = J(r, c);
      for (int k = 0; k < 4 * iters; ++k) v = v * 0.5f + 1.0f;
      C(r, c) = J(r, c) + v;
    }
  }
}
