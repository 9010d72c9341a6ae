// Golden case "predictions" (a copy of test/sim/case, sim_smoke's program): calls `scale`,
// whose CPU and CUDA variants have prediction functions, on small and on large arrays.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 4;
  if (calls < 1) {
    std::fprintf(stderr, "usage: sim_scale [calls per size >= 1]\n");
    return 2;
  }
  constexpr int kSmall = 1000;     // 4 KB: 15 us on a CPU core, launch and transfers on a GPU
  constexpr int kLarge = 4 << 20;  // 16 MB: 42 ms on a CPU core, 0.86 ms on a GPU
  std::vector<float> small(kSmall, 1.0f), large(kLarge, 1.0f);
  PEPPHER_INITIALIZE();
  const double start = starpu_timing_now();
  for (int i = 0; i < calls; ++i) {
    scale(small.data(), kSmall, 2.0f);
    scale(large.data(), kLarge, 2.0f);
  }
  const double end = starpu_timing_now();
  PEPPHER_SHUTDOWN();
  std::printf("sim_scale: %d calls per size in %.0f us\n", calls, end - start);
#ifdef STARPU_SIMGRID
  std::printf("sim_scale: simulated (results not computed, not checked)\n");
  return 0;
#else
  const float want = static_cast<float>(1 << calls);
  const bool ok = small[kSmall - 1] == want && large[kLarge - 1] == want;
  std::printf("sim_scale: results %s\n", ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
#endif
}
