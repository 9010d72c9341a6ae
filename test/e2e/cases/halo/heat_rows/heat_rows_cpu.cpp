// heat_rows, CPU variant: each row of its block from the rows above and below it, which at
// the block's edges are its halo (row(-1), row(rows())), and at the chip's edges the row
// itself (no halo there).
#include <peppher/runtime.h>

#include <cstddef>

#include "../heat_cell.h"

void heat_rows_cpu(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                   peppher::Matrix<float>& temp_out, int, int, int, float step_div_cap, float rx_1,
                   float ry_1, float rz_1, float amb_temp) {
  const auto rows = static_cast<std::ptrdiff_t>(temp_in.rows());
  const bool above = temp_in.halo_above() > 0, below = temp_in.halo_below() > 0;
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const float* row = temp_in.row(r);
    const float* up = r > 0 || above ? temp_in.row(r - 1) : row;
    const float* down = r + 1 < rows || below ? temp_in.row(r + 1) : row;
    float* out = temp_out.data() + static_cast<std::size_t>(r) * temp_out.ld();
    for (std::size_t c = 0; c < temp_in.cols(); ++c)
      out[c] = heat_cell(up, row, down, power.row(r), temp_in.cols(), c, step_div_cap, rx_1, ry_1,
                         rz_1, amb_temp);
  }
}
