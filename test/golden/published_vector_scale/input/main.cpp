// The vector_scale application: scales a vector through the vector_scale component. The
// composer generates peppher.h (the component's entry wrapper) next to this file.
#include <cstdio>
#include <vector>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  std::vector<float> v(1000, 1.0f);
  vector_scale(v.data(), static_cast<int>(v.size()), 2.5f);
  std::printf("v[0] = %g (expected 2.5)\n", v[0]);
  PEPPHER_SHUTDOWN();
  return v[0] == 2.5f ? 0 : 1;
}
