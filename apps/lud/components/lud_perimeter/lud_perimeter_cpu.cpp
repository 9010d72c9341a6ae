// lud_perimeter, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// the block row right of the diagonal block (U) and the block column below it (L).
#include "../lud_block.h"
#include "../lud_components.h"

void lud_perimeter_cpu(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  const std::size_t n = a.rows(), first = offset + LUD_B;
  for (std::size_t c = first; c < n; ++c) lud::perimeter_row(p, a.ld(), offset, c);
  for (std::size_t r = first; r < n; ++r) lud::perimeter_col(p, a.ld(), offset, r);
}
