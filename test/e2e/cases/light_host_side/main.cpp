// atax in the light form through a host-side OpenCL variant found by name
// (atax/atax_opencl.cpp with its kernels in atax/atax_opencl.cl) and a sequential one: each
// call's y and tmp are compared with a host computation in double precision.
#include <cmath>
#include <cstdio>
#include <vector>

#include "atax.h"
#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  const int nx = 150, ny = 130;  // not multiples of the kernels' work-group size of 64
  std::vector<float> A(nx * ny), x(ny);
  for (int k = 0; k < nx * ny; ++k) A[k] = static_cast<float>((k * 7 + 3) % 23) / 23.0f - 0.5f;
  for (int j = 0; j < ny; ++j) x[j] = static_cast<float>(j % 11) / 11.0f;
  std::vector<double> tmp_want(nx, 0.0), y_want(ny, 0.0);
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) tmp_want[i] += double(A[i * ny + j]) * x[j];
  }
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) y_want[j] += double(A[i * ny + j]) * tmp_want[i];
  }
  bool ok = true;
  for (int call = 0; call < 3; ++call) {
    std::vector<float> y(ny, 0.0f), tmp(nx, 0.0f);
    atax(A.data(), x.data(), y.data(), tmp.data(), nx, ny);
    double worst = 0.0;
    for (int j = 0; j < ny; ++j) {
      worst = std::fmax(worst, std::fabs(y[j] - y_want[j]) / std::fmax(1.0, std::fabs(y_want[j])));
    }
    for (int i = 0; i < nx; ++i) {
      worst = std::fmax(worst,
                        std::fabs(tmp[i] - tmp_want[i]) / std::fmax(1.0, std::fabs(tmp_want[i])));
    }
    std::printf("atax call %d: max error %.2e %s\n", call, worst, worst < 1e-4 ? "ok" : "WRONG");
    ok = ok && worst < 1e-4;
  }
  PEPPHER_SHUTDOWN();
  return ok ? 0 : 1;
}
