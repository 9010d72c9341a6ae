// phist, CPU variant: x is one block; counts, sums and top are this block's private copies
// (every element starting at the identity), accumulated in element order.
#include <peppher/runtime.h>

#include <algorithm>

void phist_cpu(const peppher::Vector<float>& x, int, peppher::Vector<int>& counts,
               peppher::Matrix<double>& sums, peppher::Vector<float>& top) {
  const int bins = static_cast<int>(counts.size());
  const float* in = x.data();
  int* c = counts.data();
  double* s = sums.data();
  float* t = top.data();
  for (size_t i = 0; i < x.size(); ++i) {
    const int b = std::min(bins - 1, static_cast<int>(in[i] * static_cast<float>(bins)));
    const double v = in[i];
    c[b] += 1;
    s[static_cast<size_t>(b) * sums.ld()] += v;
    s[static_cast<size_t>(b) * sums.ld() + 1] += v * v;
    t[b] = std::max(t[b], in[i]);
  }
}
