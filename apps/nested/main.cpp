// The nested application: components that call components. cg (whose variant calls spmv,
// dot and axpy) solves a diagonally dominant tridiagonal system whose solution is known;
// merge_sort (whose variant calls merge_sort on each half) sorts pseudo-random keys. Both
// are checked on the host; exits non-zero on a wrong result.   ./nested [n] [cutoff]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

namespace {

// A = tridiag(-1, 4, -1) (n x n, CSR), b = A * x_true; solves it by cg from x = 0.
bool check_cg(int n) {
  std::vector<float> values;
  std::vector<int> offsets{0}, columns;
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(i - 1, 0); j <= std::min(i + 1, n - 1); ++j) {
      values.push_back(i == j ? 4.0f : -1.0f);
      columns.push_back(j);
    }
    offsets.push_back(static_cast<int>(values.size()));
  }
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> want(size);
  for (std::size_t i = 0; i < size; ++i) want[i] = std::sin(0.1 * static_cast<double>(i)) + 1.0;
  std::vector<float> rhs(size);
  for (std::size_t i = 0; i < size; ++i) {
    double sum = 0.0;
    for (auto k = static_cast<std::size_t>(offsets[i]);
         k < static_cast<std::size_t>(offsets[i + 1]); ++k)
      sum += values[k] * want[static_cast<std::size_t>(columns[k])];
    rhs[i] = static_cast<float>(sum);
  }
  peppher::Vector<float> a(values), b(rhs), x(size, 0.0f);
  peppher::Vector<int> row_offsets(offsets), col_indices(columns);
  peppher::Scalar<int> steps;
  cg(a, row_offsets, col_indices, b, x, n, 1e-6f, steps);
  const peppher::Vector<float>& solution = x;  // host reads
  double worst = 0.0;
  for (std::size_t i = 0; i < size; ++i) worst = std::max(worst, std::fabs(solution[i] - want[i]));
  const bool ok = worst < 1e-4 && steps.get() > 0 && steps.get() < n;
  std::printf("nested: cg: %d unknowns, %d iterations, max error %.2g: %s\n", n, steps.get(), worst,
              ok ? "correct" : "WRONG");
  return ok;
}

// n pseudo-random keys (a linear congruential sequence), sorted by merge_sort.
bool check_sort(int n, int cutoff) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  unsigned state = 12345u;
  for (int& k : keys) {
    state = state * 1103515245u + 12345u;
    k = static_cast<int>(state >> 8) % 100000 - 50000;
  }
  peppher::Vector<int> data(keys);
  merge_sort(data, cutoff);
  std::sort(keys.begin(), keys.end());
  const peppher::Vector<int>& sorted = data;  // host reads
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += sorted[static_cast<std::size_t>(i)] != keys[static_cast<std::size_t>(i)] ? 1 : 0;
  std::printf("nested: merge_sort: %d keys, cutoff %d: %s\n", n, cutoff,
              wrong == 0 ? "correct" : "WRONG");
  return wrong == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int cutoff = argc > 2 ? std::atoi(argv[2]) : 64;
  if (n < 2 || cutoff < 1) {
    std::fprintf(stderr, "usage: nested [n >= 2] [cutoff >= 1]\n");
    return 2;
  }
  PEPPHER_INITIALIZE();
  const bool cg_ok = check_cg(n);
  const bool sort_ok = check_sort(n, cutoff);
  PEPPHER_SHUTDOWN();
  std::printf("nested: %s\n", cg_ok && sort_ok ? "all results correct" : "WRONG RESULTS");
  return cg_ok && sort_ok ? 0 : 1;
}
