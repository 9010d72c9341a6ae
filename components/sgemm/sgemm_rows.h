// The loop of every CPU and OpenMP sgemm variant (components/sgemm and components/sgemm_tiles):
// one row of C = A * B on row-major memory, i-k-j order for locality. One copy, so the whole
// product and its tiles add up every element in the same order (the same bits).
#pragma once

#include <cstddef>

namespace sgemm {

/// @brief Row @p c_row (@p n elements) of C = A * B: zeroed, then A's row @p a_row (@p k
///        elements) times B (@p k rows of @p n elements, @p ldb apart) added in order.
inline void multiply_row(const float* a_row, const float* b, std::size_t ldb, float* c_row,
                         std::size_t n, std::size_t k) {
  for (std::size_t j = 0; j < n; ++j) c_row[j] = 0.0f;
  for (std::size_t p = 0; p < k; ++p) {
    const float a_ip = a_row[p];
    const float* b_row = b + p * ldb;
    for (std::size_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
  }
}

}  // namespace sgemm
