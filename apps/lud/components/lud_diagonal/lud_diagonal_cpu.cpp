// lud_diagonal, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// in-place LU (no pivoting) of the 16 x 16 diagonal block at row/column offset.
#include "../lud_block.h"
#include "../lud_components.h"

void lud_diagonal_cpu(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  for (int i = 0; i < LUD_B; ++i) {
    for (int j = i; j < LUD_B; ++j) lud::diagonal_u(p, a.ld(), offset, i, j);
    for (int j = i + 1; j < LUD_B; ++j) lud::diagonal_l(p, a.ld(), offset, i, j);
  }
}
