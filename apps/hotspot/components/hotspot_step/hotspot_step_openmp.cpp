// hotspot_step, OpenMP variant: one time step, rows shared by the team of threads that the
// generated OPENMP wrapper sets up; same cell update as the sequential variant.
#include <peppher/runtime.h>

#include "hotspot_cell.h"

void hotspot_step_openmp(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                         peppher::Matrix<float>& temp_out, float step_div_cap, float rx_1,
                         float ry_1, float rz_1, float amb_temp) {
  const long rows = static_cast<long>(temp_out.rows());
  const std::size_t cols = temp_out.cols();
  const float* t = temp_in.data();
  const float* p = power.data();
  float* out = temp_out.data();
  const std::size_t ld_out = temp_out.ld(), ld_t = temp_in.ld(), ld_p = power.ld();
#pragma omp parallel for schedule(static)
  for (long r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out[r * ld_out + c] =
          hotspot_cell(t, p, ld_t, ld_p, static_cast<std::size_t>(rows), cols,
                       static_cast<std::size_t>(r), c, step_div_cap, rx_1, ry_1, rz_1, amb_temp);
}
