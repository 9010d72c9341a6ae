// lud_perimeter, OpenMP variant: the perimeter's columns (block row) and rows (block column)
// are independent and shared by the team; same operations as the sequential variant.
#include "../lud_block.h"
#include "../lud_components.h"

void lud_perimeter_openmp(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  const std::size_t ld = a.ld();
  const long n = static_cast<long>(a.rows()), first = offset + LUD_B, m = n - first;
#pragma omp parallel for schedule(static)
  for (long t = 0; t < 2 * m; ++t) {
    if (t < m)
      lud::perimeter_row(p, ld, offset, static_cast<std::size_t>(first + t));
    else
      lud::perimeter_col(p, ld, offset, static_cast<std::size_t>(first + t - m));
  }
}
