// The program calling the library function (test/e2e/legacy_test.cpp, utility mode case).
#include <cstdio>
#include <vector>

#include "mylib.h"
#include "peppher.h"
int main() {
  PEPPHER_INITIALIZE();
  std::vector<real_t> x(1000, 2.0), y(1000, 1.0);
  combine(x.size(), 0.5, MODE_ADD, x.data(), y.data());
  combine(x.size(), 0.25, MODE_SUB, x.data(), y.data());
  int bad = 0;
  for (real_t v : y) bad += v != 1.5;
  std::printf("combine: %d wrong\n", bad);
  PEPPHER_SHUTDOWN();
  return bad != 0;
}
