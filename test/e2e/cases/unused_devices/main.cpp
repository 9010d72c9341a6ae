// One call of twice per run on argv[1] floats (default 1024), its result checked.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"
#include "twice.h"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
  PEPPHER_INITIALIZE();
  twice(x.data(), y.data(), n);
  PEPPHER_SHUTDOWN();
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[static_cast<std::size_t>(i)] != 2 * x[static_cast<std::size_t>(i)];
  std::printf("twice: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
