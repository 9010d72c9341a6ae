// Calls grow() `calls` times at each size given (synchronous: a raw pointer), checks every
// result, and prints "ok"; the execution report says which variant ran where.
//   regression_learning CALLS N...
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 1;
  PEPPHER_INITIALIZE();
  int wrong = 0;
  for (int a = 2; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    std::vector<float> x(static_cast<std::size_t>(n), 0.0f);
    for (int c = 0; c < calls; ++c) grow(x.data(), n);
    float expected = 0.0f;  // the same steps as the variants, on this thread
    for (int c = 0; c < calls; ++c) {
      for (int s = 0; s < 200; ++s) expected = expected * 0.999f + 0.001f;
      expected += 1.0f;
    }
    for (float v : x) wrong += (v < expected - 1e-3f || v > expected + 1e-3f) ? 1 : 0;
  }
  PEPPHER_SHUTDOWN();
  std::printf("regression_learning: %s\n", wrong == 0 ? "ok" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
