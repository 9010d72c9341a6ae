// bench/partition: times a compute-bound map (iters rounds per element) on n floats, in
// one of three modes (the `run` script starts each with its own worker set):
//   whole:  heavy_whole, one task per call           -> "TIME whole=<seconds per call>"
//   blocks: heavy_part, 8 blocks per call            -> "TIME blocks=<seconds per call>"
//   auto:   heavy_auto '?', calibrated first, then timed -> "TIME auto=<s>" and the split
// Arguments: mode [n] [iters] [calls].
#include <peppher/partitioned_call.h>  // peppher::auto_split_of

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "peppher.h"

namespace {

template <typename Call>
double seconds_per_call(int calls, peppher::Vector<float>& y, Call call) {
  call();  // warm-up: registration, kernels, transfers
  y.host_read();
  auto start = std::chrono::steady_clock::now();
  for (int c = 0; c < calls; ++c) call();
  y.host_read();  // waits for the last call's tasks
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "whole";
  const size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : (size_t{1} << 22);
  const int iters = argc > 3 ? std::atoi(argv[3]) : 200;
  const int calls = argc > 4 ? std::atoi(argv[4]) : 4;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 100);
  double t = 0;
  if (mode == "whole") {
    t = seconds_per_call(calls, y, [&] { heavy_whole(x, y, iters); });
  } else if (mode == "blocks") {
    t = seconds_per_call(calls, y, [&] { heavy_part(x, y, iters, static_cast<int>(n / 8)); });
  } else {
    // Equal halves until the history model predicts both workers, then the model's split.
    for (int c = 0; c < 40 && peppher::auto_split_of("heavy_auto", n).sizes.empty(); ++c) {
      heavy_auto(x, y, iters);
      y.host_read();
    }
    t = seconds_per_call(calls, y, [&] { heavy_auto(x, y, iters); });
    peppher::Split s = peppher::auto_split_of("heavy_auto", n);
    std::printf("split:");
    for (size_t b = 0; b < s.sizes.size(); ++b)
      std::printf(" %zu@%s", s.sizes[b],
                  starpu_worker_get_type(s.workers[b]) == STARPU_CPU_WORKER ? "CPU" : "OpenCL");
    std::printf("%s\n", s.sizes.empty() ? " (model not calibrated: equal blocks)" : "");
  }
  // A correct map: every element ends at the same fixed point of v * 0.999 + 0.5 iterations.
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    float v = x[i];
    for (int r = 0; r < iters; ++r) v = v * 0.999f + 0.5f;
    ok = ok && std::fabs(y[i] - v) <= 1e-3f * (1.0f + std::fabs(v));
  }
  PEPPHER_SHUTDOWN();
  std::printf("TIME %s=%.6f %s\n", mode.c_str(), t, ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}
