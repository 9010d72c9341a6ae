// lud's input and check, shared by the composed (main.cpp) and direct versions: a generated
// diagonally dominant matrix (no pivoting needed), and an independent unblocked Doolittle LU on
// the host that the blocked result must match within float rounding.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "../common/app_check.h"

namespace lud {

/// n (a multiple of 16) from argv[1] (default 512), rounded up.
inline int size(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 512, "lud [size, a multiple of 16]");
  return (n + 15) / 16 * 16;
}

/// Row-major n x n, entries in [0, 1) plus n on the diagonal.
inline std::vector<float> generate(int n) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> d(0.0f, 1.0f);
  std::vector<float> a(static_cast<std::size_t>(n) * n);
  for (float& x : a) x = d(gen);
  for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i) * n + i] += static_cast<float>(n);
  return a;
}

/// Unblocked Doolittle LU in place (L unit lower, U upper, packed), in double.
inline std::vector<double> reference(int n, const std::vector<float>& a0) {
  std::vector<double> a(a0.begin(), a0.end());
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) {
      double& l = a[static_cast<std::size_t>(i) * n + k];
      l /= a[static_cast<std::size_t>(k) * n + k];
      for (int j = k + 1; j < n; ++j)
        a[static_cast<std::size_t>(i) * n + j] -= l * a[static_cast<std::size_t>(k) * n + j];
    }
  return a;
}

/// Entries of @p got (leading dimension @p ld) further than 1e-4 (relative to max(1, |want|)).
inline long count_wrong(const float* got, std::size_t ld, int n, const std::vector<double>& want) {
  long wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double w = want[static_cast<std::size_t>(i) * n + j];
      if (!(std::fabs(got[i * ld + j] - w) <= 1e-4 * std::fmax(1.0, std::fabs(w)))) ++wrong;
    }
  return wrong;
}

}  // namespace lud
