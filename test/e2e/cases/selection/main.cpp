// Selection end to end: `selection sel N...` calls sel with each size and checks the
// result (printing a caught peppher::Error instead); `selection tune` calls tune with
// sizes that only the BLOCK=16, 32 and 64 copies accept, and checks each added its BLOCK;
// `selection shape R C R2 C2` calls shape on an R x C and an R2 x C2 matrix.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

namespace {

int run_sel(int n) {
  std::vector<float> x(n > 0 ? n : 1, 1.0f);
  try {
    sel(x.data(), n);
  } catch (const peppher::Error& e) {
    std::printf("selection: caught: %s\n", e.what());
    return 0;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += x[i] != 2.0f;
  return wrong;
}

int run_shape(int rows, int cols, int rows2, int cols2) {
  peppher::Matrix<float> a(rows, cols), b(rows2, cols2);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) a(r, c) = static_cast<float>(r * cols + c);
  try {
    shape(a, b);
  } catch (const peppher::Error& e) {
    std::printf("selection: caught: %s\n", e.what());
    return 0;
  }
  int wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) wrong += b(r, c) != a(r, c) + 1.0f;
  return wrong;
}

int run_tune() {
  int wrong = 0;
  const int sizes[] = {100, 200, 400};  // bands (64,128], (128,256], (256,512]
  const float blocks[] = {16, 32, 64};
  for (int k = 0; k < 3; ++k) {
    std::vector<float> x(sizes[k], 1.0f);
    tune(x.data(), sizes[k]);
    for (float v : x) wrong += v != 1.0f + blocks[k];
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  int wrong = 0;
  if (argc > 1 && std::strcmp(argv[1], "tune") == 0) {
    wrong = run_tune();
  } else if (argc == 6 && std::strcmp(argv[1], "shape") == 0) {
    wrong =
        run_shape(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]));
  } else {
    for (int k = 2; k < argc; ++k) wrong += run_sel(std::atoi(argv[k]));
  }
  std::printf("selection: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
