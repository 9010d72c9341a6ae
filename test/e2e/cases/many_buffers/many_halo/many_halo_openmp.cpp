// many_halo, OpenMP variant: the CPU variant's loops shared by the team's threads. x is read with
// its halo.
#include <peppher/runtime.h>

#include <cstddef>

void many_halo_openmp(const peppher::Vector<float>& x, const peppher::Vector<float>& p0,
                      const peppher::Vector<float>& p1, const peppher::Vector<float>& p2,
                      const peppher::Vector<float>& p3, const peppher::Vector<float>& p4,
                      const peppher::Vector<float>& p5, const peppher::Vector<float>& p6,
                      peppher::Vector<float>& y, int) {
  const auto n = static_cast<std::ptrdiff_t>(y.size());
  const auto before = static_cast<std::ptrdiff_t>(x.halo_before());
  const auto after = static_cast<std::ptrdiff_t>(x.halo_after());
  const float* const p[7] = {p0.data(), p1.data(), p2.data(), p3.data(),
                             p4.data(), p5.data(), p6.data()};
  float* out = y.data();
#pragma omp parallel for
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    // Where the whole vector ends, its end element stands for the missing neighbour.
    const std::ptrdiff_t lo = i - 1 < -before ? -before : i - 1;
    const std::ptrdiff_t hi = i + 1 >= n + after ? n + after - 1 : i + 1;
    float s = x.with_halo(lo) + x.with_halo(i) + x.with_halo(hi);
    for (int k = 0; k < 7; ++k) s += p[k][i];
    out[i] = s;
  }
}
