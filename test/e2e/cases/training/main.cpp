// Training end to end: `training crossing|predicted|blocked N...` calls that interface
// with each size and checks that every element was incremented once.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  PEPPHER_INITIALIZE();
  const std::string which = argv[1];
  int wrong = 0;
  for (int k = 2; k < argc; ++k) {
    const int n = std::atoi(argv[k]);
    std::vector<float> x(n, 1.0f);
    if (which == "predicted") {
      predicted(x.data(), n);
    } else if (which == "blocked") {
      blocked(x.data(), n);
    } else {
      crossing(x.data(), n);
    }
    for (float v : x) wrong += v != 2.0f;
  }
  std::printf("training: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
