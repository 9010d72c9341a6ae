// nw_diagonal, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// the blocks of one block anti-diagonal, one after the other, each swept row by row.
#include "../nw_diagonal.h"
#include "nw_block.h"

void nw_diagonal_cpu(peppher::Matrix<int>& score, const peppher::Matrix<int>& ref, int diag,
                     int penalty) {
  const int nblocks = static_cast<int>(score.rows() - 1) / kNwBlock;
  int first, count;
  nw_blocks_on(diag, nblocks, first, count);
  for (int b = 0; b < count; ++b)
    nw_block(score.data(), score.ld(), ref.data(), ref.ld(), first + b, diag - first - b, penalty);
}
