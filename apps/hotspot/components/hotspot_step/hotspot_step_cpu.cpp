// hotspot_step, sequential CPU variant: one time step over every cell, row by row, on
// peppher::Matrix views of the worker's copies (element (i, j) at data()[i * ld() + j]).
#include <peppher/runtime.h>

#include "hotspot_cell.h"

void hotspot_step_cpu(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                      peppher::Matrix<float>& temp_out, float step_div_cap, float rx_1, float ry_1,
                      float rz_1, float amb_temp) {
  const std::size_t rows = temp_out.rows();
  const std::size_t cols = temp_out.cols();
  const float* t = temp_in.data();
  const float* p = power.data();
  float* out = temp_out.data();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out[r * temp_out.ld() + c] = hotspot_cell(t, p, temp_in.ld(), power.ld(), rows, cols, r, c,
                                                step_div_cap, rx_1, ry_1, rz_1, amb_temp);
}
