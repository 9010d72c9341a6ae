// diffuse, CPU variant: q = the number of elements of J (each element stays unchanged).
#include <peppher/runtime.h>

void diffuse_cpu(peppher::Matrix<float>& J, peppher::Scalar<float>& q, int n) {
  (void)n;
  float sum = 0;
  for (size_t r = 0; r < J.rows(); ++r) {
    for (size_t c = 0; c < J.cols(); ++c) sum += J(r, c) * J(r, c) > 0 ? 1.0f : 1.0f;
  }
  q = sum;
}
