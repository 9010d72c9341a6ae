// srad_update on the CPU: every pixel moves towards 0.5 by its coefficient (pointwise).
#include <peppher/runtime.h>

#include <cmath>

void srad_update_cpu(peppher::Matrix<float>& J, const peppher::Matrix<float>& c, int n) {
  (void)n;
  const std::size_t rows = J.rows(), cols = J.cols(), ld = J.ld(), cld = c.ld();
  float* p = J.host_write();
  const float* k = c.host_read();
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const float v = p[i * ld + j];
      p[i * ld + j] = v + 0.125f * k[i * cld + j] * (std::sqrt(v * v + 0.25f) - v);
    }
  }
}
