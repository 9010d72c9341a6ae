// phist, OpenMP variant: the threads share out the bins; each scans the block for its bins'
// elements in element order, so every bin's sums are the CPU variant's, bit for bit.
#include <peppher/runtime.h>

#include <algorithm>

void phist_openmp(const peppher::Vector<float>& x, int, peppher::Vector<int>& counts,
                  peppher::Matrix<double>& sums, peppher::Vector<float>& top) {
  const int bins = static_cast<int>(counts.size());
  const float* in = x.data();
  int* c = counts.data();
  double* s = sums.data();
  float* t = top.data();
  const size_t n = x.size();
  const size_t ld = sums.ld();
#pragma omp parallel for schedule(static)
  for (int b = 0; b < bins; ++b) {
    for (size_t i = 0; i < n; ++i) {
      if (std::min(bins - 1, static_cast<int>(in[i] * static_cast<float>(bins))) != b) continue;
      const double v = in[i];
      c[b] += 1;
      s[static_cast<size_t>(b) * ld] += v;
      s[static_cast<size_t>(b) * ld + 1] += v * v;
      t[b] = std::max(t[b], in[i]);
    }
  }
}
