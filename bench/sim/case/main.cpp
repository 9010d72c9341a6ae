// bench/sim's program (bench/sim/run runs it under StarPU on SimGrid): bench/gpu's selection
// mix (gpu_mapw: n = 64 .. 1M floats, 40 rounds per element, fewer calls as n grows) through
// sim_map, each part's calls on the same two Vectors, then one host read; then bench/gpu's
// `?` split (gpu_map on n = 16M floats, x written on the host before each call and y read
// after it) through sim_poly, at 1, 2, 4 .. 64 rounds per element (the CPUs from faster than
// the GPU to far slower). Prints each part's time by StarPU's clock (simulated under SimGrid)
// and which variant ran where. The runner starts it with every worker (dynamic selection,
// the split over every worker) and with the CPUs or the GPUs alone (the oracle, as forcing
// each variant does in bench/gpu).
//   ./bench_sim [rounds of the mix, default 1]
#include <cstdio>
#include <cstdlib>

#include "peppher.h"
#include "peppher/partitioned_call.h"  // peppher::auto_split_of

namespace {

struct Part {
  int n;
  int calls;
};
// bench/gpu's kMix (bench/gpu/main.cpp, mode select); its 40 rounds are sim_map's own.
constexpr Part kMix[] = {{64, 600},   {256, 400},  {1024, 200},  {4096, 100},
                         {16384, 40}, {65536, 20}, {262144, 10}, {1048576, 6}};

// The `?` split at @p rounds per element on @p n elements: a first call (equal blocks, from
// which the split's model is read), then kTimed calls, each after a host write to x (the
// GPU's copy of x is stale, as in bench/gpu) and followed by a host read of y. Prints the
// simulated time per timed call and where the elements went.
void split_part(std::size_t n, int rounds) {
  constexpr int kTimed = 4;
  peppher::Vector<float> x(n, 0.5f), c(static_cast<std::size_t>(rounds), 0.999f), y(n);
  auto call = [&](int k) {
    x[static_cast<std::size_t>(k) % n] = 0.25f;
    sim_poly(x, c, y);
    y.host_read();
  };
  call(0);
  const double start = starpu_timing_now();
  for (int k = 1; k <= kTimed; ++k) call(k);
  const double us = (starpu_timing_now() - start) / kTimed;
  const peppher::Split s = peppher::auto_split_of("sim_poly", n);
  std::size_t on_cpus = 0, on_gpus = 0;
  for (std::size_t b = 0; b < s.sizes.size() && b < s.workers.size(); ++b)
    (starpu_worker_get_type(s.workers[b]) == STARPU_CPU_WORKER ? on_cpus : on_gpus) += s.sizes[b];
  std::printf("SPLIT rounds=%d n=%zu calls=%d us=%.1f blocks=%zu cpus=%zu gpus=%zu\n", rounds, n,
              kTimed, us, s.sizes.size(), on_cpus, on_gpus);
}

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
  // Each rounds value on an extent of its own: the split's predictions are kept per extent.
  for (int per_element = 1, i = 0; per_element <= 64; per_element *= 2, ++i)
    split_part((std::size_t{1} << 24) + 1024 * static_cast<std::size_t>(i), per_element);
  PEPPHER_SHUTDOWN();
#ifdef STARPU_SIMGRID
  std::printf("bench_sim: simulated (results not computed, not checked)\n");
#endif
  return 0;
}
