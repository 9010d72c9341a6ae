// kmeans_accumulate, CPU variant: the block's points summed per cluster into sums and counts,
// this block's private copies (from 0), in point order.
#include <peppher/runtime.h>

void kmeans_accumulate_cpu(const peppher::Matrix<float>& points,
                           const peppher::Vector<int>& membership, int,
                           peppher::Matrix<float>& sums, peppher::Vector<int>& counts) {
  const std::size_t f = sums.cols();
  const float* p = points.data();
  const int* m = membership.data();
  float* s = sums.data();
  int* n = counts.data();
  for (std::size_t i = 0; i < points.rows(); ++i) {
    const auto c = static_cast<std::size_t>(m[i]);
    for (std::size_t j = 0; j < f; ++j) s[c * sums.ld() + j] += p[i * points.ld() + j];
    n[c] += 1;
  }
}
