// stencil_vec, CPU variant: reads h elements of x around its block through the halo view.
#include <peppher/runtime.h>

#include <cstddef>

void stencil_vec_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, int /*bs*/,
                     int h) {
  const auto n = static_cast<std::ptrdiff_t>(y.size());
  float* out = y.data();
  const auto before = static_cast<std::ptrdiff_t>(x.halo_before());
  const auto after = static_cast<std::ptrdiff_t>(x.halo_after());
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    // Where the whole vector ends, its end element stands for the missing neighbours.
    const std::ptrdiff_t lo = i - h < -before ? -before : i - h;
    const std::ptrdiff_t hi = i + h >= n + after ? n + after - 1 : i + h;
    out[i] = x.with_halo(lo) + 2.0f * x.with_halo(i) + x.with_halo(hi);
  }
}
