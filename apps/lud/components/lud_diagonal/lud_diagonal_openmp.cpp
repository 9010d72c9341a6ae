// lud_diagonal, OpenMP variant: the diagonal block is 16 x 16, too small to share, so the team's
// first thread factors it (same order as the sequential variant).
#include "../lud_block.h"
#include "../lud_components.h"

void lud_diagonal_openmp(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  const std::size_t ld = a.ld();
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < LUD_B; ++i) {
    for (int j = i; j < LUD_B; ++j) lud::diagonal_u(p, ld, offset, i, j);
    for (int j = i + 1; j < LUD_B; ++j) lud::diagonal_l(p, ld, offset, i, j);
  }
}
