// Calls learn() `calls` times (synchronous: a raw pointer) and checks the result; the
// execution report says which variant ran where.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 10;
  PEPPHER_INITIALIZE();
  std::vector<float> x(1000, 0.0f);
  for (int c = 0; c < calls; ++c) learn(x.data(), static_cast<int>(x.size()));
  PEPPHER_SHUTDOWN();
  for (float v : x) {
    if (v != static_cast<float>(calls)) {
      std::printf("wrong result %g\n", static_cast<double>(v));
      return 1;
    }
  }
  std::printf("ok\n");
  return 0;
}
