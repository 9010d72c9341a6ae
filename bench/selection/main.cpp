// bench/selection: total time of a mix of polymul calls (n from 16 to 8192, more small
// calls than large ones), in one of these modes (the `run` script starts each):
//   forced VARIANT  every call pinned to VARIANT (peppher::force_variant); also prints
//                   "SIZE n=<seconds for that size>" for the oracle
//   dynamic         the runtime chooses (dmda + history models), after a calibration pass
//   static          whatever this build's entry wrapper does (compose -staticDispatch)
// Last line: "TIME <mode>=<seconds for the mix>".
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

// Each size gets roughly the same share of the total time, so both regimes count.
const Part kMix[] = {{16, 4000}, {32, 2000}, {64, 1000}, {128, 500}, {256, 200},
                     {512, 80},  {1024, 30}, {2048, 10}, {4096, 4},  {8192, 2}};

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
    std::fprintf(stderr, "usage: bench_selection forced polymul_schoolbook|polymul_karatsuba\n");
    return 2;
  }
  if (mode == "dynamic") {  // calibration: every (variant, size) gets its samples
    for (const Part& p : kMix) {
      Part few{p.n, 12};
      run_part(few);
    }
  }
  for (const Part& p : kMix) run_part({p.n, 2});  // warm-up
  double total = 0;
  for (const Part& p : kMix) {
    const double t = run_part(p);
    total += t;
    if (mode == "forced") std::printf("SIZE %d=%.6f\n", p.n, t);
  }
  std::printf("TIME %s=%.4f\n", mode.c_str(), total);
  PEPPHER_SHUTDOWN();
  return 0;
}
