// srad_prepare on the CPU (vectorised with -O3 -ffast-math): J scaled into [0, 1] by its
// maximum, then q0 = variance / mean^2 of the scaled image.
#include <peppher/runtime.h>

#include <algorithm>

void srad_prepare_cpu(peppher::Matrix<float>& J, peppher::Scalar<float>& q0, int n) {
  (void)n;
  const std::size_t rows = J.rows(), cols = J.cols(), ld = J.ld();
  float* p = J.host_write();
  float top = 1e-20f;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) top = std::max(top, p[r * ld + c]);
  const float scale = 1.0f / top;
  float sum = 0, sum2 = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const float v = p[r * ld + c] * scale;
      p[r * ld + c] = v;
      sum += v;
      sum2 += v * v;
    }
  }
  const float count = static_cast<float>(rows * cols);
  const float mean = sum / count;
  const float var = sum2 / count - mean * mean;
  q0 = var / (mean * mean + 1e-20f);
}
