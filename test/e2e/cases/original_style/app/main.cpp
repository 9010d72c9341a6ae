// vscale four times (CPU variant or OpenCL kernel), then vmax<float>, <int> and <double>: prints
// OK when every number is right.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "original_style.h"
#include "peppher.h"

int main(int argc, char** argv) {
  PEPPHER_INITIALIZE();
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  for (int k = 0; k < kRounds; ++k) vscale(&v[0], n, 2.0f);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i];
  const double expected = 16.0 * n * (n - 1) / 2.0;
  float fmax = 0;
  vmax(&v[0], n, &fmax);
  std::vector<int> k(777);
  for (int i = 0; i < 777; ++i) k[i] = (i * 13) % 777 - 100;
  int kmax = 0;
  vmax(&k[0], 777, &kmax);
  typedef double real;  // vmax<double>: the instantiations come from these calls
  std::vector<real> d(3, 0.5);
  d[1] = 2.5;
  real dmax = 0;
  vmax(&d[0], 3, &dmax);
  const bool ok = sum == expected && fmax == 16.0f * (n - 1) && kmax == 676 && dmax == 2.5;
  std::printf("sum=%.1f expected=%.1f max=%g,%d %s\n", sum, expected, fmax, kmax,
              ok ? "OK" : "WRONG");
  PEPPHER_SHUTDOWN();
  return ok ? 0 : 1;
}
