// The SpMV application's input and check, shared by the composed (main.cpp) and direct
// versions: a random CSR matrix (some empty rows), the vector x of each call, a double
// precision host reference, and the bits of every result folded into one checksum.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace spmv_app {

struct Csr {
  int nrows = 0;
  int ncols = 0;
  std::vector<float> values;
  std::vector<int> row_offsets;
  std::vector<int> col_indices;
};

/// The matrix of call @p it: nrows x nrows, @p per_row random entries in each row but every
/// seventh (empty).
inline Csr random_csr(int nrows, int per_row, int it) {
  std::mt19937 gen(1234u + static_cast<unsigned>(it));
  std::uniform_int_distribution<int> col(0, nrows - 1);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  Csr a;
  a.nrows = a.ncols = nrows;
  a.row_offsets.push_back(0);
  for (int r = 0; r < nrows; ++r) {
    int count = r % 7 == 0 ? 0 : per_row;  // some empty rows
    for (int k = 0; k < count; ++k) {
      a.col_indices.push_back(col(gen));
      a.values.push_back(val(gen));
    }
    a.row_offsets.push_back(static_cast<int>(a.values.size()));
  }
  return a;
}

/// The x of call @p it.
inline std::vector<float> input(int ncols, int it) {
  std::vector<float> x(static_cast<std::size_t>(ncols));
  for (int i = 0; i < ncols; ++i) x[i] = static_cast<float>((i + it) % 13) - 6.0f;
  return x;
}

/// Rows of @p y that differ from a double-precision product by more than 1e-3 relative.
inline int count_wrong(const Csr& a, const std::vector<float>& x, const std::vector<float>& y) {
  int wrong = 0;
  for (int r = 0; r < a.nrows; ++r) {
    double sum = 0.0;
    for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k)
      sum += static_cast<double>(a.values[k]) * x[a.col_indices[k]];
    const auto want = static_cast<float>(sum);
    if (std::fabs(y[r] - want) > 1e-3f * (1.0f + std::fabs(want))) ++wrong;
  }
  return wrong;
}

/// FNV-1a over the bits of every element of @p y, continuing @p h.
inline std::uint64_t fold(const std::vector<float>& y, std::uint64_t h) {
  for (float v : y) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

}  // namespace spmv_app
