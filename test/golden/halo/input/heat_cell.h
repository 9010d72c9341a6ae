// HotSpot's cell update (apps/hotspot's kernel) from row pointers, shared by the CPU variants
// of the halo case and its host reference: the OpenCL and CUDA kernels spell out the same
// expression in the same order, without contraction, so every device gives the same bits.
#pragma once

#include <cstddef>

/// The new temperature of cell @p c of a row: @p up, @p row, @p down are the rows above, at
/// and below it (@p row itself at the chip's top or bottom edge), @p prow its power row.
inline float heat_cell(const float* up, const float* row, const float* down, const float* prow,
                       std::size_t cols, std::size_t c, float step_div_cap, float rx_1, float ry_1,
                       float rz_1, float amb) {
  const float center = row[c];
  const float north = up[c];
  const float south = down[c];
  const float west = row[c > 0 ? c - 1 : c];
  const float east = row[c + 1 < cols ? c + 1 : c];
  const float delta = step_div_cap * (prow[c] + (south + north - 2.0f * center) * ry_1 +
                                      (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
  return center + delta;
}
