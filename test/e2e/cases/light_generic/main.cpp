// Calls the generic light-form component axpby with three element types (deduced from the
// arguments or written out) and checks each result against the host's.
#include <cstdio>
#include <vector>

#include "axpby.h"
#include "peppher.h"

namespace {

// y = a x + b y on `calls` calls, then the elements that differ from the host's result.
template <typename T>
int wrong_after(T a, T b, int calls) {
  const int n = 1000;
  std::vector<T> x(n), y(n), want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<T>(i % 13);
    y[i] = want[i] = static_cast<T>(i % 7);
  }
  for (int c = 0; c < calls; ++c) {
    axpby(a, x.data(), b, y.data(), n);
    for (int i = 0; i < n; ++i) want[i] = a * x[i] + b * want[i];
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != want[i];
  return wrong;
}

}  // namespace

int main() {
  PEPPHER_INITIALIZE();
  // Exact in every type: small integers, and halves for the floating-point ones.
  const int f = wrong_after<float>(2.0f, 0.5f, 3);
  const int d = wrong_after<double>(0.5, 2.0, 3);
  const int i = wrong_after<int>(3, -1, 3);
  PEPPHER_SHUTDOWN();
  std::printf("axpby<float>: %d wrong\naxpby<double>: %d wrong\naxpby<int>: %d wrong\n", f, d, i);
  return f + d + i == 0 ? 0 : 1;
}
