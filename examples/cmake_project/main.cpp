// brighten_image: scales every pixel of an image by a gain through the brighten component,
// three times, and checks the result. Prints which variant ran where with PEPPHER_REPORT=1;
// PEPPHER_VARIANT=brighten=brighten_opencl pins the OpenCL kernel.
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  peppher::Vector<float> image(static_cast<size_t>(n), 1.0f);
  for (int round = 0; round < 3; ++round) brighten(image, 2.0f);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += image[i] != 8.0f;
  std::printf("brighten_image: %d pixels, %s\n", n, wrong == 0 ? "all correct" : "WRONG");
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
