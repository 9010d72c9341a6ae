// Fills a matrix with its global row and column numbers and a vector with its indices
// through partitioned calls, and counts the wrong elements.
#include <cstdio>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  const int rows = 37, cols = 5, n = 1001;
  peppher::Matrix<float> M(rows, cols, -1.0f);
  peppher::Vector<int> v(n, -1);
  for (int round = 0; round < 3; ++round) {
    rowid(M, 0);
    elemid(v, 0);
  }
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) wrong += M(r, c) != static_cast<float>(r * 100 + c);
  }
  for (int i = 0; i < n; ++i) wrong += v[i] != i;
  std::printf("block_first: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
