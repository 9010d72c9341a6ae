// blur_vec, CPU variant: y[i] = x[i-h] + 2 x[i] + x[i+h] over its block, the neighbours
// beyond the block from x's halo (with_halo), x[i] itself beyond an end of the vector.
#include <peppher/runtime.h>

#include <cstddef>

void blur_vec_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, int, int h) {
  const auto n = static_cast<std::ptrdiff_t>(x.size());
  const auto before = static_cast<std::ptrdiff_t>(x.halo_before());
  const auto after = static_cast<std::ptrdiff_t>(x.halo_after());
  float* out = y.data();
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const float left = i - h >= -before ? x.with_halo(i - h) : x.with_halo(i);
    const float right = i + h < n + after ? x.with_halo(i + h) : x.with_halo(i);
    out[i] = left + 2.0f * x.with_halo(i) + right;
  }
}
