// HotSpot's input and reference, shared by the composed (main.cpp) and direct versions: the
// chip's thermal constants (as in Rodinia), a generated temperature/power grid, and a host
// reference that applies the same cell update as the variants, step by step.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "../common/app_check.h"
#include "components/hotspot_step/hotspot_cell.h"

namespace hotspot {

/// The coefficients of one time step for a rows x cols grid over a 16 x 16 mm chip.
struct Coefficients {
  float step_div_cap, rx_1, ry_1, rz_1, amb_temp;
};

inline Coefficients coefficients(int rows, int cols) {
  const double chip_h = 0.016, chip_w = 0.016, t_chip = 0.0005, factor_chip = 0.5;
  const double spec_heat_si = 1.75e6, k_si = 100, max_pd = 3.0e6, precision = 0.001;
  const double grid_h = chip_h / rows, grid_w = chip_w / cols;
  const double cap = factor_chip * spec_heat_si * t_chip * grid_w * grid_h;
  const double rx = grid_w / (2.0 * k_si * t_chip * grid_h);
  const double ry = grid_h / (2.0 * k_si * t_chip * grid_w);
  const double rz = t_chip / (k_si * grid_h * grid_w);
  const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
  const double step = precision / max_slope;
  return {static_cast<float>(step / cap), static_cast<float>(1 / rx), static_cast<float>(1 / ry),
          static_cast<float>(1 / rz), 80.0f};
}

/// Initial temperatures (323..343 K) and power densities, row-major rows x cols.
inline void generate(int rows, int cols, std::vector<float>& temp, std::vector<float>& power) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> t(323.0f, 343.0f), p(0.0f, 0.002f);
  temp.resize(static_cast<std::size_t>(rows) * cols);
  power.resize(temp.size());
  for (float& x : temp) x = t(gen);
  for (float& x : power) x = p(gen);
}

/// @p steps time steps on the host; returns the final grid.
inline std::vector<float> reference(int rows, int cols, int steps, std::vector<float> temp,
                                    const std::vector<float>& power, const Coefficients& k) {
  std::vector<float> next(temp.size());
  for (int s = 0; s < steps; ++s) {
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r)
      for (std::size_t c = 0; c < static_cast<std::size_t>(cols); ++c)
        next[r * cols + c] = hotspot_cell(temp.data(), power.data(), cols, cols, rows, cols, r, c,
                                          k.step_div_cap, k.rx_1, k.ry_1, k.rz_1, k.amb_temp);
    temp.swap(next);
  }
  return temp;
}

/// Cells of @p got (row-major, leading dimension @p ld) further than 1e-3 K from @p want.
inline long count_wrong(const float* got, std::size_t ld, int rows, int cols,
                        const std::vector<float>& want) {
  long wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (!(std::fabs(got[r * ld + c] - want[static_cast<std::size_t>(r) * cols + c]) <= 1e-3f))
        ++wrong;
  return wrong;
}

constexpr const char* kUsage = "hotspot [rows] [cols] [steps]";

}  // namespace hotspot
