// Sizes from the descriptors' numElements, computed at run time, as a user's program meets
// them: `sizes div` divides by a zero d, `sizes overflow` cubes an n whose cube overflows
// 64 bits, `sizes null` passes a null pointer with n = 1000. Nothing is caught here: the
// program ends with the peppher::Error's message and status 1. `sizes ok` computes.
#include <cstdio>
#include <cstring>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "ok";
  PEPPHER_INITIALIZE();
  std::vector<float> buf(1000, 0.0f);
  int zero = argc > 2 ? 1 : 0;  // a run-time 0 the compiler cannot see through
  if (std::strcmp(mode, "div") == 0) {
    rows_fill(buf.data(), 1000, zero);
  } else if (std::strcmp(mode, "overflow") == 0) {
    cube_fill(buf.data(), 3000000 + zero);
  } else if (std::strcmp(mode, "null") == 0) {
    rows_fill(nullptr, 1000, 1 + zero);
  } else {
    rows_fill(buf.data(), 1000, 4 + zero);  // 250 elements
    cube_fill(buf.data() + 500, 7 + zero);  // 343 elements
    std::printf("ok %g %g %g %g\n", buf[249], buf[250], buf[842], buf[843]);
  }
  std::printf("%s: returned\n", mode);
  PEPPHER_SHUTDOWN();
  return 0;
}
