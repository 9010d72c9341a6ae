// nw_diagonal, OpenMP variant (skeleton from compose -generateCompFiles, filled in): the
// independent blocks of one block anti-diagonal shared by the team of threads.
#include "../nw_diagonal.h"
#include "nw_block.h"

void nw_diagonal_openmp(peppher::Matrix<int>& score, const peppher::Matrix<int>& ref, int diag,
                        int penalty) {
  const int nblocks = static_cast<int>(score.rows() - 1) / kNwBlock;
  int first, count;
  nw_blocks_on(diag, nblocks, first, count);
  int* s = score.data();
  const int* r = ref.data();
  const std::size_t lds = score.ld(), ldr = ref.ld();
#pragma omp parallel for schedule(dynamic)
  for (int b = 0; b < count; ++b) nw_block(s, lds, r, ldr, first + b, diag - first - b, penalty);
}
