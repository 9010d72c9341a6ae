// Third-party variants used as written: every call's results must equal a host computation,
// whichever variant PEPPHER_VARIANT forces.
#include <cmath>
#include <cstdio>
#include <vector>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  const int n = 1000;  // not a multiple of the 64-item work-groups
  std::vector<float> x(n), y(n);
  peppher::Vector<float> v(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
    v[i] = static_cast<float>(i);
  }
  tp_axpy(n, 2.0f, x.data(), y.data());
  tp_inc(v, n);
  tp_inc(v, n);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    wrong += std::fabs(y[i] - (2.0f * i + 1.0f)) > 1e-3f;
    wrong += std::fabs(v[i] - (i + 2.0f)) > 1e-3f;
  }
  PEPPHER_SHUTDOWN();
  std::printf("third_party: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
