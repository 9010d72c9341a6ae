// The most specific variant end to end: `specific scale N...` and `specific learn N...` call
// that interface with each size and check that x doubled; prints "specific: K wrong".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  int wrong = 0;
  const bool learning = argc > 1 && std::strcmp(argv[1], "learn") == 0;
  for (int a = 2; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    std::vector<float> x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i);
    if (learning)
      learn(x.data(), n);
    else
      scale(x.data(), n);
    for (int i = 0; i < n; ++i) wrong += x[static_cast<size_t>(i)] != 2.0f * static_cast<float>(i);
  }
  PEPPHER_SHUTDOWN();
  std::printf("specific: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
