// PolyBench-style 2-D kernels composed as written: a gemm launched on a 2-D NDRange
// rounded up to whole work-groups, the same kernel on each 16-row block of a partitioned
// call, and a 3x3 convolution staging tiles in __local memory. Every result is compared
// with a host computation in double precision; prints one line per interface.
#include <cmath>
#include <cstdio>
#include <vector>

#include "peppher.h"

namespace {

// The largest difference from `want`, relative to max(1, |want|).
double max_error(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0.0;
  for (size_t k = 0; k < got.size(); ++k) {
    const double scale = std::fmax(1.0, std::fabs(want[k]));
    worst = std::fmax(worst, std::fabs(got[k] - want[k]) / scale);
  }
  return worst;
}

std::vector<float> filled(int n, int seed) {
  std::vector<float> v(n);
  for (int k = 0; k < n; ++k) v[k] = static_cast<float>((k * seed + 7) % 19) / 19.0f - 0.5f;
  return v;
}

bool report(const char* what, double error) {
  const bool ok = error < 1e-4;
  std::printf("%s: max error %.2e %s\n", what, error, ok ? "ok" : "WRONG");
  return ok;
}

// C = alpha * A * B + beta * C in double.
std::vector<double> gemm_reference(const std::vector<float>& A, const std::vector<float>& B,
                                   const std::vector<float>& C, double alpha, double beta, int ni,
                                   int nj, int nk) {
  std::vector<double> out(C.size());
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nj; ++j) {
      double sum = 0.0;
      for (int k = 0; k < nk; ++k) sum += double(A[i * nk + k]) * B[k * nj + j];
      out[i * nj + j] = alpha * sum + beta * C[i * nj + j];
    }
  }
  return out;
}

}  // namespace

int main() {
  PEPPHER_INITIALIZE();
  // Not multiples of the work-group sizes (32 x 8, 16 x 4, 16 x 8): the ranges round up.
  const int ni = 100, nj = 70, nk = 45;
  const float alpha = 1.5f, beta = 0.5f;
  const std::vector<float> A = filled(ni * nk, 3), B = filled(nk * nj, 5), C0 = filled(ni * nj, 11);
  const std::vector<double> want = gemm_reference(A, B, C0, alpha, beta, ni, nj, nk);
  bool ok = true;

  std::vector<float> C = C0;
  gemm(A.data(), B.data(), C.data(), alpha, beta, ni, nj, nk);
  ok = report("gemm", max_error(C, want)) && ok;

  C = C0;
  gemm_rows(A.data(), B.data(), C.data(), alpha, beta, ni, nj, nk);
  ok = report("gemm_rows", max_error(C, want)) && ok;

  const int ci = 61, cj = 83;
  const std::vector<float> in = filled(ci * cj, 7);
  std::vector<float> out(ci * cj, 0.0f);
  std::vector<double> conv(ci * cj, 0.0);
  for (int i = 1; i < ci - 1; ++i) {
    for (int j = 1; j < cj - 1; ++j) {
      auto a = [&](int di, int dj) { return double(in[(i + di) * cj + j + dj]); };
      conv[i * cj + j] = 0.2 * a(-1, -1) + 0.5 * a(0, -1) - 0.8 * a(1, -1) - 0.3 * a(-1, 0) +
                         0.6 * a(0, 0) - 0.9 * a(1, 0) + 0.4 * a(-1, 1) + 0.7 * a(0, 1) +
                         0.1 * a(1, 1);
    }
  }
  conv2d(in.data(), out.data(), ci, cj);
  ok = report("conv2d", max_error(out, conv)) && ok;
  PEPPHER_SHUTDOWN();
  return ok ? 0 : 1;
}
