// bench/sim's program (bench/sim/run runs it under StarPU on SimGrid): bench/gpu's selection
// mix (gpu_mapw: n = 64 .. 1M floats, 40 rounds per element, fewer calls as n grows) through
// sim_map, each part's calls on the same two Vectors, then one host read; prints each part's
// time by StarPU's clock (simulated under SimGrid) and which variant ran where. The runner
// starts it with every worker (dynamic selection) and with the CPUs or the GPU alone (the
// per-part oracle, as forcing each variant does in bench/gpu).
//   ./bench_sim [rounds of the mix, default 1]
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

namespace {

struct Part {
  int n;
  int calls;
};
// bench/gpu's kMix (bench/gpu/main.cpp, mode select); its 40 rounds are sim_map's own.
constexpr Part kMix[] = {{64, 600},   {256, 400},  {1024, 200},  {4096, 100},
                         {16384, 40}, {65536, 20}, {262144, 10}, {1048576, 6}};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  if (rounds < 1) {
    std::fprintf(stderr, "usage: bench_sim [rounds of the mix >= 1]\n");
    return 2;
  }
  PEPPHER_INITIALIZE();
  for (int r = 0; r < rounds; ++r) {
    for (const Part& p : kMix) {
      peppher::Vector<float> x(p.n, 0.5f), y(p.n);
      const double start = starpu_timing_now();
      for (int c = 0; c < p.calls; ++c) sim_map(x, y);
      y.host_read();
      std::printf("PART n=%d calls=%d us=%.1f\n", p.n, p.calls, starpu_timing_now() - start);
    }
  }
  PEPPHER_SHUTDOWN();
#ifdef STARPU_SIMGRID
  std::printf("bench_sim: simulated (results not computed, not checked)\n");
#endif
  return 0;
}
