// kmeans_accumulate, OpenMP variant: the clusters shared out among the threads; each scans
// the block's points in order for its clusters' points, so every sum is the CPU variant's,
// bit for bit.
#include <peppher/runtime.h>

void kmeans_accumulate_openmp(const peppher::Matrix<float>& points,
                              const peppher::Vector<int>& membership, int,
                              peppher::Matrix<float>& sums, peppher::Vector<int>& counts) {
  const int k = static_cast<int>(sums.rows());
  const std::size_t f = sums.cols(), ld = sums.ld(), pld = points.ld(), rows = points.rows();
  const float* p = points.data();
  const int* m = membership.data();
  float* s = sums.data();
  int* n = counts.data();
#pragma omp parallel for schedule(static)
  for (int c = 0; c < k; ++c) {
    for (std::size_t i = 0; i < rows; ++i) {
      if (m[i] != c) continue;
      for (std::size_t j = 0; j < f; ++j) s[static_cast<std::size_t>(c) * ld + j] += p[i * pld + j];
      n[c] += 1;
    }
  }
}
