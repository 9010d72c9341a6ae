// bench/chain: `iterations` rounds of the SRAD-like chain srad_prepare -> srad_coeff ->
// srad_update on one n x n image, from the image on the host to the result back on the
// host, chosen three ways in one process (static dispatch from the training table):
//   percall    each call's fastest trained variant (peppher::set_placement(false))
//   placement  trained time + expected transfer time (the default)
//   forced     each of the 2^3 assignments of CPU / OpenCL variants (peppher::force_variant)
// Interleaved over `reps` repetitions; each mode's fastest repetition is kept. Prints
// "TIME <mode>=<seconds>" lines, the best assignment, and which variants each mode ran.
//   bench_chain [n] [iterations] [reps]
#include <peppher/placement.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

const char* const kSteps[] = {"srad_prepare", "srad_coeff", "srad_update"};

double run_chain(int n, int iterations, peppher::Matrix<float>& J, peppher::Matrix<float>& c,
                 peppher::Scalar<float>& q0) {
  float* p = J.host_write();  // the image starts on the host, device copies invalid
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) p[i * J.ld() + j] = 1.0f + static_cast<float>((i * 7 + j * 3) % 17);
  const auto start = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) {
    srad_prepare(J, q0, n);
    srad_coeff(J, q0, c, n);
    srad_update(J, c, n);
  }
  const float first = J.host_read()[0];  // the result is on the host
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!(first >= 0.0f && first <= 1.0f)) std::printf("unexpected pixel %g\n", double(first));
  return s;
}

void force(int assignment) {
  for (int k = 0; k < 3; ++k) {
    const std::string v =
        std::string(kSteps[k]) + ((assignment >> (2 - k)) & 1 ? "_opencl" : "_cpu");
    peppher::force_variant(kSteps[k], assignment < 0 ? "" : v);
  }
}

std::string name_of(int assignment) {
  std::string s;
  for (int k = 0; k < 3; ++k) s += (assignment >> (2 - k)) & 1 ? "O" : "C";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  PEPPHER_INITIALIZE();
  peppher::Matrix<float> J(n, n), c(n, n);
  peppher::Scalar<float> q0(0.0f);
  run_chain(n, 1, J, c, q0);     // builds the kernels, allocates device memory
  constexpr int kModes = 2 + 8;  // percall, placement, the eight assignments
  std::vector<double> best(kModes, 1e30);
  for (int r = 0; r < reps; ++r) {
    for (int m = 0; m < kModes; ++m) {
      force(m >= 2 ? m - 2 : -1);
      peppher::set_placement(m != 0);
      best[m] = std::min(best[m], run_chain(n, iterations, J, c, q0));
    }
  }
  force(-1);
  peppher::set_placement(true);
  int fixed = 0;
  for (int a = 0; a < 8; ++a) {
    std::printf("TIME forced %s=%.4f\n", name_of(a).c_str(), best[2 + a]);
    if (best[2 + a] < best[2 + fixed]) fixed = a;
  }
  std::printf("(C: CPU variant, O: OpenCL variant, for prepare, coeff, update)\n");
  std::printf("TIME percall=%.4f\nTIME placement=%.4f\nTIME best=%.4f %s\n", best[0], best[1],
              best[2 + fixed], name_of(fixed).c_str());
  // Which variants the two dispatch modes choose, from one more chain each.
  for (int m = 0; m < 2; ++m) {
    peppher::set_placement(m != 0);
    peppher::reset_report();
    run_chain(n, iterations, J, c, q0);
    std::printf("%s ran:\n", m == 0 ? "percall" : "placement");
    std::fputs(peppher::report_string().c_str(), stdout);
  }
  PEPPHER_SHUTDOWN();
  return 0;
}
