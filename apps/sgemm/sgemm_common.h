// The sgemm application's sizes, inputs and check, shared by the composed (main.cpp) and direct
// versions, on row-major arrays with a leading dimension: random fills, a double-precision host
// product with the magnitude its rounding scales with, the count of wrong elements, and the
// bits of every result folded into one checksum.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace sgemm_app {

/// The shapes of `sgemm [size]`: A is m x k, B k x n, C m x n, F n x p (E = C * F is m x p);
/// deliberately not square and not multiples of the OpenCL tile size.
struct Shape {
  std::size_t m, k, n, p;
};
inline Shape shape(int size) {
  const auto m = static_cast<std::size_t>(size);
  return {m, m * 3 / 4 + 1, m + 3, m / 2 + 1};
}

/// Fills the rows x cols elements (not the padding) of @p a (rows @p ld apart) with values in
/// [-1, 1) from @p seed.
inline void fill(float* a, std::size_t rows, std::size_t cols, std::size_t ld, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) a[i * ld + j] = val(gen);
}

/// A dense row-major double matrix for the host reference.
struct Dense {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> value;  // the product
  std::vector<double> scale;  // sum of |a_ip * b_pj|: the magnitude the rounding scales with
};

inline Dense dense(const float* a, std::size_t rows, std::size_t cols, std::size_t ld) {
  Dense d{rows, cols, {}, {}};
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) d.value.push_back(a[i * ld + j]);
  d.scale.assign(d.value.size(), 0.0);
  for (std::size_t i = 0; i < d.value.size(); ++i) d.scale[i] = std::fabs(d.value[i]);
  return d;
}

inline Dense multiply(const Dense& a, const Dense& b) {
  Dense c{a.rows, b.cols, std::vector<double>(a.rows * b.cols, 0.0),
          std::vector<double>(a.rows * b.cols, 0.0)};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t p = 0; p < a.cols; ++p) {
      const double a_ip = a.value[i * a.cols + p];
      const double s_ip = a.scale[i * a.cols + p];
      for (std::size_t j = 0; j < b.cols; ++j) {
        c.value[i * b.cols + j] += a_ip * b.value[p * b.cols + j];
        c.scale[i * b.cols + j] += s_ip * b.scale[p * b.cols + j];
      }
    }
  return c;
}

/// Elements of @p got (rows x cols, rows @p ld apart) that differ from @p want by more than
/// 1e-3 relative.
inline long count_wrong(const float* got, std::size_t rows, std::size_t cols, std::size_t ld,
                        const Dense& want) {
  if (rows != want.rows || cols != want.cols) return static_cast<long>(want.value.size());
  long wrong = 0;
  for (std::size_t i = 0; i < want.rows; ++i)
    for (std::size_t j = 0; j < want.cols; ++j) {
      const double w = want.value[i * want.cols + j];
      const double tol = 1e-3 * std::fmax(std::fabs(w), want.scale[i * want.cols + j]) + 1e-12;
      if (!(std::fabs(got[i * ld + j] - w) <= tol)) ++wrong;
    }
  return wrong;
}

/// FNV-1a over the bits of every element (not the padding), continuing @p h.
inline std::uint64_t fold(const float* a, std::size_t rows, std::size_t cols, std::size_t ld,
                          std::uint64_t h) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &a[i * ld + j], sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
  return h;
}

}  // namespace sgemm_app
