// bench/first-run: a PolyBench-like 2-D Jacobi program (T steps of a 5-point stencil on an
// n x n grid, ping-pong between two grids), run either composed (the jacobi interface, its
// sequential, OpenMP and OpenCL variants chosen by the runtime) or as the original OpenMP
// program it replaces (the same loops, no runtime). Each run prints the kernel region's
// time (first step to result on the host, as PolyBench's timer) and the host reference
// check's time, which runs while the composed program's runtime is up.
//   bench_first_run composed|original N T
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "jacobi/jacobi_point.h"
#include "peppher.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

float initial(int n, int i, int j) {
  return static_cast<float>((i * (j + 2) + 2) % n) / static_cast<float>(n);
}

// The host reference (sequential, as PolyBench's check): T steps from the initial grid.
std::vector<float> reference(int n, int steps) {
  std::vector<float> a(static_cast<std::size_t>(n) * n), b(a.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[static_cast<std::size_t>(i) * n + j] = initial(n, i, j);
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        b[static_cast<std::size_t>(i) * n + j] = jacobi_point(a.data(), n, i, j);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a[static_cast<std::size_t>(i) * n + j] = jacobi_point(b.data(), n, i, j);
  }
  return a;
}

bool matches(const float* got, const std::vector<float>& want) {
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (std::fabs(got[k] - want[k]) > 1e-4f) {
      std::fprintf(stderr, "mismatch at %zu: %g vs %g\n", k, got[k], want[k]);
      return false;
    }
  }
  return true;
}

int run_original(int n, int steps) {
  std::vector<float> a(static_cast<std::size_t>(n) * n), b(a.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[static_cast<std::size_t>(i) * n + j] = initial(n, i, j);
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        b[static_cast<std::size_t>(i) * n + j] = jacobi_point(a.data(), n, i, j);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a[static_cast<std::size_t>(i) * n + j] = jacobi_point(b.data(), n, i, j);
  }
  const double kernel = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  const bool ok = matches(a.data(), reference(n, steps));
  std::printf("original: %s kernel=%.4f host_check=%.4f\n", ok ? "correct" : "WRONG", kernel,
              seconds_since(t1));
  return ok ? 0 : 1;
}

int run_composed(int n, int steps) {
  PEPPHER_INITIALIZE();
  int status = 0;
  {
    peppher::Vector<float> a(static_cast<std::size_t>(n) * n), b(a.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a[static_cast<std::size_t>(i) * n + j] = initial(n, i, j);
    const auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < steps; ++t) {
      jacobi(a, b, n);
      jacobi(b, a, n);
    }
    const float* result = &static_cast<const peppher::Vector<float>&>(a)[0];  // waits, fetches
    const double kernel = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const bool ok = matches(result, reference(n, steps));  // the runtime is up meanwhile
    std::printf("composed: %s kernel=%.4f host_check=%.4f\n", ok ? "correct" : "WRONG", kernel,
                seconds_since(t1));
    status = ok ? 0 : 1;
  }
  PEPPHER_SHUTDOWN();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 ||
      (std::strcmp(argv[1], "composed") != 0 && std::strcmp(argv[1], "original") != 0)) {
    std::fprintf(stderr, "usage: %s composed|original N T\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  if (n < 3 || steps < 1) {
    std::fprintf(stderr, "%s: N must be at least 3 and T at least 1\n", argv[0]);
    return 2;
  }
  return std::strcmp(argv[1], "original") == 0 ? run_original(n, steps) : run_composed(n, steps);
}
