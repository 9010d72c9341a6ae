// bench/selection: total time of a mix of polymul calls (n from 256 to 8192, many more
// mid-size calls than large ones), in one of these modes (the `run` script starts each):
//   forced VARIANT  every call pinned to VARIANT (peppher::force_variant); also prints
//                   "SIZE n=<seconds for that size>" for the oracle
//   dynamic         the runtime chooses (dmda + history models), after a calibration pass
//   static          whatever this build's entry wrapper does (compose -staticDispatch)
// Last line: "TIME <mode>=<seconds for the mix>" (each part's fastest of 5 runs, summed).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

struct Part {
  int n;
  int calls;
};

// Many calls of n = 256 (schoolbook's regime: about 1.5 times faster than the FFT there,
// task overhead included) and a few large ones (the FFT's: 5 to 10 times faster), weighted
// so that no variant alone is good. Sizes below 256 are left out: there the task overhead
// (about 20 us) hides the variants' difference.
const Part kMix[] = {{256, 6000}, {512, 100}, {1024, 20}, {2048, 10}, {4096, 10}, {8192, 4}};

double run_part(const Part& p) {
  std::vector<double> a(p.n, 0.5), b(p.n, 0.25), c(2 * p.n - 1);
  auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < p.calls; ++k) polymul(a.data(), b.data(), c.data(), p.n);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "dynamic";
  PEPPHER_INITIALIZE();
  if (mode == "forced" && (argc < 3 || !peppher::force_variant("polymul", argv[2]))) {
    std::fprintf(stderr, "usage: bench_selection forced polymul_schoolbook|polymul_fft\n");
    return 2;
  }
  if (mode == "dynamic") {  // calibration: every (variant, size) gets its samples
    for (const Part& p : kMix) {
      Part few{p.n, 12};
      run_part(few);
    }
  }
  for (const Part& p : kMix) run_part({p.n, 2});  // warm-up
  // Each part of the mix is timed kReps times and its fastest time kept: the machine is
  // shared, and the minimum is what the mode can do, not what a neighbour did meanwhile.
  constexpr int kReps = 5;
  double total = 0;
  for (const Part& p : kMix) {
    double best = run_part(p);
    for (int r = 1; r < kReps; ++r) best = std::min(best, run_part(p));
    total += best;
    if (mode == "forced") std::printf("SIZE %d=%.6f\n", p.n, best);
  }
  std::printf("TIME %s=%.4f\n", mode.c_str(), total);
  PEPPHER_SHUTDOWN();
  return 0;
}
