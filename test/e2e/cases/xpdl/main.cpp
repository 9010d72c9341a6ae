// Scales a vector a few times through vector_scale and checks every element. C++11: the
// interface takes only plain types and raw pointers, so peppher.h needs nothing newer.
#include <cstdio>
#include <vector>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  std::vector<float> v(4096, 1.0f);
  for (int k = 0; k < 3; ++k) vector_scale(v.data(), static_cast<int>(v.size()), 2.0f);
  int wrong = 0;
  for (float x : v) wrong += x != 8.0f;
  std::printf("xpdl: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
