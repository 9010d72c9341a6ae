// hotspot_block, sequential CPU variant: one time step of the rows of one block. temp_in's
// view is the block with a halo of one row: row(-1) is the last row of the block above
// and row(rows()) the first of the block below, except at the chip's top and bottom edges
// (halo_above() / halo_below() == 0), where the cell update uses the edge row itself.
#include <peppher/runtime.h>

#include "../../../hotspot/components/hotspot_step/hotspot_cell.h"

void hotspot_block_cpu(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                       peppher::Matrix<float>& temp_out, int /*block_rows*/, float step_div_cap,
                       float rx_1, float ry_1, float rz_1, float amb_temp) {
  const auto rows = static_cast<std::ptrdiff_t>(temp_out.rows());
  const std::size_t cols = temp_out.cols();
  const float* p = power.data();
  float* out = temp_out.data();
  const bool top = temp_in.halo_above() == 0, bottom = temp_in.halo_below() == 0;
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = temp_in.row(r);
    const float* up = r == 0 && top ? row : temp_in.row(r - 1);
    const float* down = r + 1 == rows && bottom ? row : temp_in.row(r + 1);
    const float* prow = p + static_cast<std::size_t>(r) * power.ld();
    float* o = out + static_cast<std::size_t>(r) * temp_out.ld();
    for (std::size_t c = 0; c < cols; ++c)
      o[c] =
          hotspot_cell_rows(up, row, down, prow, cols, c, step_div_cap, rx_1, ry_1, rz_1, amb_temp);
  }
}
