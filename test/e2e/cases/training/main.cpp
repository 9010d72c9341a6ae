// Training end to end: `training crossing N...` and `training predicted N...` call the
// interface with each size and check that every element was incremented once.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  PEPPHER_INITIALIZE();
  const bool predicted_calls = std::strcmp(argv[1], "predicted") == 0;
  int wrong = 0;
  for (int k = 2; k < argc; ++k) {
    const int n = std::atoi(argv[k]);
    std::vector<float> x(n, 1.0f);
    if (predicted_calls) {
      predicted(x.data(), n);
    } else {
      crossing(x.data(), n);
    }
    for (float v : x) wrong += v != 2.0f;
  }
  std::printf("training: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
