// The axpy_dot application: a CG-like loop over three components, dot (into a peppher::Scalar),
// axpy and vector_scale, mirrored by a double-precision host reference; exits non-zero on a
// wrong dot product or vector element.   ./axpy_dot [n] [iterations]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

namespace {

// |got - want| within 1e-3 of the magnitude the rounding scales with (at least |want|).
bool close(double got, double want, double scale) {
  return std::fabs(got - want) <= 1e-3 * std::fmax(std::fabs(want), scale) + 1e-12;
}

// The step length of iteration @p xy: bounded in (-0.5, 0.5) so the vectors stay O(1).
double step(double xy) {
  return -0.5 * xy / (1.0 + std::fabs(xy));
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 1 || iterations < 1) {
    std::fprintf(stderr, "usage: axpy_dot [n >= 1] [iterations >= 1]\n");
    return 2;
  }

  std::vector<float> x(static_cast<size_t>(n));
  std::vector<float> y(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = static_cast<float>((i * 37) % 101) / 50.0f - 1.0f;
    y[static_cast<size_t>(i)] = static_cast<float>((i * 11) % 97) / 48.0f - 1.0f;
  }
  std::vector<double> xr(x.begin(), x.end());
  std::vector<double> yr(y.begin(), y.end());

  PEPPHER_INITIALIZE();
  int wrong = 0;
  int calls = 0;
  {
    peppher::Scalar<float> xy;  // reused: each dot overwrites it on whichever worker ran it
    for (int it = 0; it <= iterations; ++it) {
      dot(x.data(), y.data(), n, xy);
      ++calls;
      double xy_ref = 0.0, scale = 0.0;
      for (int i = 0; i < n; ++i) {
        xy_ref += xr[static_cast<size_t>(i)] * yr[static_cast<size_t>(i)];
        scale += std::fabs(xr[static_cast<size_t>(i)] * yr[static_cast<size_t>(i)]);
      }
      const float got = xy.get();  // host read of the Scalar: waits, fetches once
      if (!close(got, xy_ref, scale)) {
        std::printf("axpy_dot: iteration %d: dot = %.9g, expected %.9g\n", it, got, xy_ref);
        ++wrong;
      }
      if (it == iterations) break;  // the last dot checks the final vectors as a whole

      // y = a * x + y with a step taken from this iteration's dot product, then rescale x.
      const float a = static_cast<float>(step(got));
      const float factor = it % 2 == 0 ? 1.25f : 0.8f;
      axpy(a, x.data(), y.data(), n);
      vector_scale(x.data(), n, factor);
      calls += 2;
      for (size_t i = 0; i < xr.size(); ++i) {
        yr[i] += static_cast<double>(a) * xr[i];
        xr[i] *= static_cast<double>(factor);
      }
    }
  }
  PEPPHER_SHUTDOWN();

  int wrong_elements = 0;
  for (size_t i = 0; i < xr.size(); ++i) {
    if (!close(x[i], xr[i], 1e-1) || !close(y[i], yr[i], 1e-1)) ++wrong_elements;
  }
  if (wrong_elements != 0) std::printf("axpy_dot: %d wrong vector elements\n", wrong_elements);
  wrong += wrong_elements;

  std::printf("axpy_dot: n=%d, %d iterations, %d calls: %s\n", n, iterations, calls,
              wrong == 0 ? "all results correct" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
