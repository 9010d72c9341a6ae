// pathfinder_row, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// one dynamic-programming row, dst[c] = wall(row, c) + min(src[c-1], src[c], src[c+1]).
#include "../pathfinder_row.h"

void pathfinder_row_cpu(const peppher::Matrix<int>& wall, const peppher::Vector<int>& src,
                        peppher::Vector<int>& dst, int row) {
  const long cols = static_cast<long>(dst.size());
  const int* w = wall.data() + static_cast<std::size_t>(row) * wall.ld();
  const int* s = src.data();
  int* d = dst.data();
  for (long c = 0; c < cols; ++c) {
    int best = s[c];
    if (c > 0 && s[c - 1] < best) best = s[c - 1];
    if (c + 1 < cols && s[c + 1] < best) best = s[c + 1];
    d[c] = w[c] + best;
  }
}
