// Reference parameters: a float& result copied back after each (synchronous) call, a
// const float& argument passed by value. Checks every intermediate total.
#include <cstdio>
#include <vector>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  std::vector<float> x(1000, 0.5f);  // sum = 500
  float total = 0.0f;
  int wrong = 0;
  for (int k = 1; k <= 20; ++k) {
    const float scale = static_cast<float>(k % 3);
    const float before = total;
    accumulate(x.data(), static_cast<int>(x.size()), total, scale);
    wrong += total != before + 500.0f * scale;
  }
  PEPPHER_SHUTDOWN();
  std::printf("references: total %g, %d wrong\n", total, wrong);
  return wrong == 0 ? 0 : 1;
}
