// `static_partition N...`: calls pclip on N elements ramping from -1 to 2 for each N (in
// blocks of at most 600) and checks that every element was limited to [0, 1].
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  int wrong = 0;
  for (int a = 1; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    std::vector<float> x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) x[i] = -1.0f + 3.0f * static_cast<float>(i) / static_cast<float>(n);
    pclip(x.data(), n);
    for (int i = 0; i < n; ++i) {
      const float want = -1.0f + 3.0f * static_cast<float>(i) / static_cast<float>(n);
      wrong += x[i] != (want < 0.0f ? 0.0f : want > 1.0f ? 1.0f : want);
    }
  }
  PEPPHER_SHUTDOWN();
  std::printf("static_partition: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
