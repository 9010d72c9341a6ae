// Needleman-Wunsch on one block, shared by the CPU and OpenMP variants: the blocks of block
// anti-diagonal `diag` of a (n+1) x (n+1) score matrix whose first row and column hold the
// gap penalties; each cell is max(diagonal + similarity, left - penalty, up - penalty).
#pragma once

#include <algorithm>
#include <cstddef>

constexpr int kNwBlock = 16;  // n is a multiple of it, as in Rodinia

/// First block row on block anti-diagonal @p diag, and how many blocks lie on it.
inline void nw_blocks_on(int diag, int nblocks, int& first_bi, int& count) {
  first_bi = std::max(0, diag - nblocks + 1);
  count = std::min(diag, nblocks - 1) - first_bi + 1;
}

inline void nw_block(int* score, std::size_t lds, const int* ref, std::size_t ldr, int bi, int bj,
                     int penalty) {
  for (int i = 1 + bi * kNwBlock; i <= (bi + 1) * kNwBlock; ++i)
    for (int j = 1 + bj * kNwBlock; j <= (bj + 1) * kNwBlock; ++j) {
      const int diagonal = score[(i - 1) * lds + (j - 1)] + ref[i * ldr + j];
      const int left = score[i * lds + (j - 1)] - penalty;
      const int up = score[(i - 1) * lds + j] - penalty;
      score[i * lds + j] = std::max(diagonal, std::max(left, up));
    }
}
