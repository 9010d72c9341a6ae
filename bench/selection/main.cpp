// bench/selection: total time of a mix of polymul calls (n from 256 to 8192, many more
// mid-size calls than large ones) as this build chooses the variants, next to each variant
// forced alone (peppher::force_variant) and the per-size oracle (the best forced variant
// of each part of the mix). The argument names the build (the `run` script starts both):
//   dynamic  the runtime chooses (dmda + history models), after a calibration pass
//   static   the entry wrapper chooses from the training table (compose -staticDispatch)
// Prints "TIME forced <variant>=", "TIME oracle=", "TIME best_single=", "TIME <mode>=":
// seconds for the mix, each part's fastest of 5 runs, summed.
// Two more modes measure a regression model's predictions (a build composed with
// -useRegressionModels or -useNLRegressionModels, its own STARPU_HOME, PEPPHER_TRACE on):
//   calibrate  calls at the powers of two from 256 to 16384, smallest first
//   held_back  one call at each of three sizes inside every octave (304 to 13762), which
//              calibrate never ran: the trace holds each task's predicted_us and duration
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

struct Part {
  int n;
  int calls;
};

// Many calls of n = 256 and 512 (schoolbook's regime: about twice as fast as the FFT there)
// and a few large ones (the FFT's: 5 to 10 times faster), weighted so that no variant alone
// is good. Sizes below 256 are left out: there the task overhead hides the difference.
const Part kMix[] = {{256, 3000}, {512, 600}, {1024, 20}, {2048, 20}, {4096, 10}, {8192, 5}};

// The regression models' sizes: calibrated at (the powers of two, five calls each), then
// held back: three sizes inside each octave, one call each, never run before.
const Part kCalibration[] = {{256, 5},  {512, 5},  {1024, 5}, {2048, 5},
                             {4096, 5}, {8192, 5}, {16384, 5}};
std::vector<Part> held_back_sizes() {
  std::vector<Part> out;
  for (int base = 256; base < 16384; base *= 2)
    for (double f : {1.19, 1.41, 1.68}) out.push_back({static_cast<int>(base * f), 1});
  return out;
}

// The part's calls, submitted back to back (Vector operands: asynchronous), until the
// last one's result is on the host.
double run_part(const Part& p) {
  peppher::Vector<double> a(p.n, 0.5), b(p.n, 0.25), c(2 * p.n - 1);
  auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < p.calls; ++k) polymul(a, b, c, p.n);
  c.host_read();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "dynamic";
  PEPPHER_INITIALIZE();
  if (mode == "calibrate" || mode == "held_back") {
    const std::vector<Part> parts =
        mode == "calibrate" ? std::vector<Part>(std::begin(kCalibration), std::end(kCalibration))
                            : held_back_sizes();
    for (const Part& p : parts) run_part(p);
    PEPPHER_SHUTDOWN();
    return 0;
  }
  std::vector<std::string> variants;
  for (const peppher::VariantSelector* s : peppher::selectors()) {
    if (s->interface_name() == "polymul") variants = s->variants();
  }
  if (mode == "dynamic") {  // calibration: every (variant, size) gets its samples
    for (const Part& p : kMix) run_part({p.n, 12});
  }
  for (const Part& p : kMix) run_part({p.n, 2});  // warm-up
  // Per part of the mix, interleaved: each variant forced, then the mode's own choice, so
  // the oracle and the mode are measured at the same moments of a shared machine. Each is
  // timed kReps times and its fastest kept: what it can do, not what a neighbour did.
  constexpr int kReps = 5;
  std::vector<double> forced(variants.size(), 0.0);
  double chosen = 0, oracle = 0;
  for (const Part& p : kMix) {
    std::vector<double> best_forced(variants.size(), 1e30);
    double best_chosen = 1e30;
    for (int r = 0; r < kReps; ++r) {
      for (size_t v = 0; v < variants.size(); ++v) {
        peppher::force_variant("polymul", variants[v]);
        best_forced[v] = std::min(best_forced[v], run_part(p));
      }
      peppher::force_variant("polymul", "");
      best_chosen = std::min(best_chosen, run_part(p));
    }
    std::printf("PART n=%d calls=%d", p.n, p.calls);
    for (size_t v = 0; v < variants.size(); ++v) {
      std::printf(" %s=%.4f", variants[v].c_str(), best_forced[v]);
      forced[v] += best_forced[v];
    }
    std::printf(" %s=%.4f\n", mode.c_str(), best_chosen);
    oracle += *std::min_element(best_forced.begin(), best_forced.end());
    chosen += best_chosen;
  }
  double best_single = 1e30;
  for (size_t v = 0; v < variants.size(); ++v) {
    std::printf("TIME forced %s=%.4f\n", variants[v].c_str(), forced[v]);
    best_single = std::min(best_single, forced[v]);
  }
  std::printf("TIME oracle=%.4f\nTIME best_single=%.4f\nTIME %s=%.4f\n", oracle, best_single,
              mode.c_str(), chosen);
  PEPPHER_SHUTDOWN();
  return 0;
}
