// PathFinder's input and reference, shared by the composed (main.cpp) and direct versions:
// a rows x cols grid of step costs 0..9 (as in Rodinia), and the host dynamic programming
// giving, per column, the cheapest top-to-bottom path ending there.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "../common/app_check.h"

namespace pathfinder {

inline std::vector<int> generate(int rows, int cols) {
  std::mt19937 gen(9);
  std::uniform_int_distribution<int> cost(0, 9);
  std::vector<int> wall(static_cast<std::size_t>(rows) * cols);
  for (int& x : wall) x = cost(gen);
  return wall;
}

inline std::vector<int> reference(int rows, int cols, const std::vector<int>& wall) {
  std::vector<int> src(wall.begin(), wall.begin() + cols), dst(cols);
  for (int r = 1; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int best = src[c];
      if (c > 0) best = std::min(best, src[c - 1]);
      if (c + 1 < cols) best = std::min(best, src[c + 1]);
      dst[c] = wall[static_cast<std::size_t>(r) * cols + c] + best;
    }
    src.swap(dst);
  }
  return src;
}

inline long count_wrong(const int* got, const std::vector<int>& want) {
  long wrong = 0;
  for (std::size_t c = 0; c < want.size(); ++c) wrong += got[c] != want[c];
  return wrong;
}

constexpr const char* kUsage = "pathfinder [cols] [rows]";

}  // namespace pathfinder
