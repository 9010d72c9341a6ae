// Needleman-Wunsch's input and reference, shared by the composed (main.cpp) and direct
// versions: two random sequences over a 10-letter alphabet, the (n+1) x (n+1) similarity and
// initial score matrices (gap penalties on the first row and column), and a host row sweep.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "../common/app_check.h"

namespace nw {

struct Input {
  int n = 0;               // sequence length, a multiple of 16
  std::vector<int> ref;    // (n+1) x (n+1): similarity of a[i-1] and b[j-1] at (i, j)
  std::vector<int> score;  // (n+1) x (n+1): -i*penalty / -j*penalty on the borders, 0 inside
};

inline Input generate(int n, int penalty) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> letter(0, 9);
  std::vector<int> a(n), b(n);
  for (int& x : a) x = letter(gen);
  for (int& x : b) x = letter(gen);
  const std::size_t w = static_cast<std::size_t>(n) + 1;
  Input in{n, std::vector<int>(w * w, 0), std::vector<int>(w * w, 0)};
  for (std::size_t i = 1; i < w; ++i)
    for (std::size_t j = 1; j < w; ++j) {
      const int x = a[i - 1], y = b[j - 1];
      in.ref[i * w + j] = x == y ? 5 + x % 5 : -1 - (x + y) % 5;
    }
  for (std::size_t i = 0; i < w; ++i) {
    in.score[i * w] = -static_cast<int>(i) * penalty;
    in.score[i] = -static_cast<int>(i) * penalty;
  }
  return in;
}

inline std::vector<int> reference(const Input& in, int penalty) {
  std::vector<int> s = in.score;
  const std::size_t w = static_cast<std::size_t>(in.n) + 1;
  for (std::size_t i = 1; i < w; ++i)
    for (std::size_t j = 1; j < w; ++j)
      s[i * w + j] = std::max(s[(i - 1) * w + j - 1] + in.ref[i * w + j],
                              std::max(s[i * w + j - 1], s[(i - 1) * w + j]) - penalty);
  return s;
}

inline long count_wrong(const int* got, std::size_t ld, const std::vector<int>& want, int n) {
  long wrong = 0;
  const std::size_t w = static_cast<std::size_t>(n) + 1;
  for (std::size_t i = 0; i < w; ++i)
    for (std::size_t j = 0; j < w; ++j) wrong += got[i * ld + j] != want[i * w + j];
  return wrong;
}

/// Sequence length from the command line, rounded up to a multiple of 16.
inline int length(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 2048, "nw [length] [penalty]");
  return (n + 15) / 16 * 16;
}

}  // namespace nw
