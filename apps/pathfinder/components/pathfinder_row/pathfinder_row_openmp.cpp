// pathfinder_row, OpenMP variant (skeleton from compose -generateCompFiles, filled in): the
// columns of one dynamic-programming row shared by the team of threads.
#include "../pathfinder_row.h"

void pathfinder_row_openmp(const peppher::Matrix<int>& wall, const peppher::Vector<int>& src,
                           peppher::Vector<int>& dst, int row) {
  const long cols = static_cast<long>(dst.size());
  const int* w = wall.data() + static_cast<std::size_t>(row) * wall.ld();
  const int* s = src.data();
  int* d = dst.data();
#pragma omp parallel for schedule(static)
  for (long c = 0; c < cols; ++c) {
    int best = s[c];
    if (c > 0 && s[c - 1] < best) best = s[c - 1];
    if (c + 1 < cols && s[c + 1] < best) best = s[c + 1];
    d[c] = w[c] + best;
  }
}
