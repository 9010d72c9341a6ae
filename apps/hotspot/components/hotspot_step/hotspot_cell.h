// HotSpot's cell update, shared by the CPU and OpenMP variants: the new temperature of cell
// (r, c) from its four neighbours (clamped at the chip's edges), its power and the ambient.
// The OpenCL and CUDA kernels spell out the same expression in the same order.
#pragma once

#include <cstddef>

inline float hotspot_cell(const float* t, const float* p, std::size_t ld_t, std::size_t ld_p,
                          std::size_t rows, std::size_t cols, std::size_t r, std::size_t c,
                          float step_div_cap, float rx_1, float ry_1, float rz_1, float amb) {
  const float center = t[r * ld_t + c];
  const float north = t[(r > 0 ? r - 1 : r) * ld_t + c];
  const float south = t[(r + 1 < rows ? r + 1 : r) * ld_t + c];
  const float west = t[r * ld_t + (c > 0 ? c - 1 : c)];
  const float east = t[r * ld_t + (c + 1 < cols ? c + 1 : c)];
  const float delta = step_div_cap * (p[r * ld_p + c] + (south + north - 2.0f * center) * ry_1 +
                                      (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
  return center + delta;
}

/// The same update from row pointers (the distributed hotspot's blocks, apps/hotspot_mpi):
/// @p up, @p row and @p down are rows r - 1, r and r + 1 (row itself at the chip's top or
/// bottom edge), @p prow row r of the power grid.
inline float hotspot_cell_rows(const float* up, const float* row, const float* down,
                               const float* prow, std::size_t cols, std::size_t c,
                               float step_div_cap, float rx_1, float ry_1, float rz_1, float amb) {
  const float center = row[c];
  const float north = up[c];
  const float south = down[c];
  const float west = row[c > 0 ? c - 1 : c];
  const float east = row[c + 1 < cols ? c + 1 : c];
  const float delta = step_div_cap * (prow[c] + (south + north - 2.0f * center) * ry_1 +
                                      (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
  return center + delta;
}
