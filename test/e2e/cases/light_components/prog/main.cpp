// A light-form program whose components are not among the headers it includes: composed
// with `compose prog/main.cpp --components comps`, it gets vfill and vscale through the
// generated peppher.h. Checks the numbers against the host's.
#include <cstdio>
#include <vector>

#include "peppher.h"

int main() {
  const int n = 2000;
  std::vector<float> x(n);
  PEPPHER_INITIALIZE();
  vfill(x.data(), n, 1.0f, 0.5f);
  for (int call = 0; call < 3; ++call) vscale(x.data(), n, 2.0f);
  PEPPHER_SHUTDOWN();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += x[i] != 8.0f * (1.0f + static_cast<float>(i) * 0.5f);
  std::printf("components: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
