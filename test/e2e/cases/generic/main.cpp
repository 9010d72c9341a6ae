// Generic components end to end: `generic N...` sorts random int, float and double arrays
// of each size with the composed sort<T> and checks them against std::sort. Built with
// -DGENERIC_TEST_UNINSTANTIATED it calls sort<short>, which must not compile.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "peppher.h"

namespace {

template <typename T>
int check_sort(int n, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<T> data(n);
  for (T& v : data) v = static_cast<T>(dist(rng)) / static_cast<T>(3);
  std::vector<T> expected = data;
  std::sort(expected.begin(), expected.end());
  sort(data.data(), n);  // the composed generic component: sort<T> deduced from T*
  return data == expected ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  std::mt19937 rng(7);
  int wrong = 0;
  for (int k = 1; k < argc; ++k) {
    const int n = std::atoi(argv[k]);
    wrong += check_sort<int>(n, rng) + check_sort<float>(n, rng) + check_sort<double>(n, rng);
  }
#ifdef GENERIC_TEST_UNINSTANTIATED
  short never[2] = {2, 1};
  sort(never, 2);  // not instantiated: must not compile
#endif
  std::printf("generic: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
