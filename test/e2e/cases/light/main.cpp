// A light-form program (no descriptors): calls saxpy, declared with annotations in
// saxpy.h, checks y against a host reference and prints a checksum to compare runs.
#include <cmath>
#include <cstdio>
#include <vector>

#include "peppher.h"
#include "saxpy.h"

int main() {
  const int n = 4096;
  std::vector<float> x(n), y(n);
  std::vector<double> want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 17) / 8.0f;
    y[i] = static_cast<float>(i % 5);
    want[i] = y[i];
  }
  PEPPHER_INITIALIZE();
  for (int call = 0; call < 4; ++call) {
    const float a = 0.5f + static_cast<float>(call);
    saxpy(a, x.data(), y.data(), n);
    for (int i = 0; i < n; ++i) want[i] = static_cast<double>(a) * x[i] + want[i];
  }
  PEPPHER_SHUTDOWN();
  int wrong = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(y[i] - want[i]) > 1e-4 * (1.0 + std::fabs(want[i]))) ++wrong;
    sum += y[i];
  }
  std::printf("saxpy: checksum %.3f, %d wrong\n", sum, wrong);
  return wrong == 0 ? 0 : 1;
}
