// Rodinia lud's per-element updates, shared by the CPU and OpenMP variants: matrix a (leading
// dimension ld), diagonal block at row/column `off`, blocks of LUD_B. The OpenCL and CUDA
// kernels spell out the same operations in the same order (no fma), so results match bit for bit.
#pragma once

#include <cstddef>

#define LUD_B 16

namespace lud {

/// Row i of U in the diagonal block (columns j >= i), then column i of L (rows j > i).
inline void diagonal_u(float* a, std::size_t ld, std::size_t off, int i, int j) {
  float* r = a + (off + i) * ld + off;
  for (int k = 0; k < i; ++k) r[j] -= r[k] * a[(off + k) * ld + off + j];
}
inline void diagonal_l(float* a, std::size_t ld, std::size_t off, int i, int j) {
  float* r = a + (off + j) * ld + off;
  for (int k = 0; k < i; ++k) r[i] -= r[k] * a[(off + k) * ld + off + i];
  r[i] /= a[(off + i) * ld + off + i];
}
/// Column c (right of the diagonal block) of the block row: forward substitution with unit L.
inline void perimeter_row(float* a, std::size_t ld, std::size_t off, std::size_t c) {
  for (int i = 1; i < LUD_B; ++i)
    for (int k = 0; k < i; ++k)
      a[(off + i) * ld + c] -= a[(off + i) * ld + off + k] * a[(off + k) * ld + c];
}
/// Row r (below the diagonal block) of the block column: substitution with U.
inline void perimeter_col(float* a, std::size_t ld, std::size_t off, std::size_t r) {
  float* row = a + r * ld + off;
  for (int j = 0; j < LUD_B; ++j) {
    for (int k = 0; k < j; ++k) row[j] -= row[k] * a[(off + k) * ld + off + j];
    row[j] /= a[(off + j) * ld + off + j];
  }
}
/// Element (r, c) of the trailing matrix: a[r][c] -= sum over the block's k of L[r][k] U[k][c].
inline void internal(float* a, std::size_t ld, std::size_t off, std::size_t r, std::size_t c) {
  float sum = 0.0f;
  for (int k = 0; k < LUD_B; ++k) sum += a[r * ld + off + k] * a[(off + k) * ld + c];
  a[r * ld + c] -= sum;
}

}  // namespace lud
