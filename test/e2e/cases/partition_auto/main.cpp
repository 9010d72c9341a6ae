// The '?' split sized from the performance model: `calls` calls of pauto on n elements.
// The first calls split equally (one block per worker) and calibrate the history model;
// once it predicts both workers, the split follows their speeds. Prints the split chosen
// ("split: <size>@<CPU|OpenCL> ...") and the verdict. Arguments: n calls iters.
#include <peppher/partitioned_call.h>  // peppher::auto_split_of

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 12;
  const int iters = argc > 3 ? std::atoi(argv[3]) : 60;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000);
  int wrong = 0;
  for (int c = 0; c < calls; ++c) {
    pauto(x, y, iters);
    for (size_t i = 0; i < n; ++i) wrong += std::fabs(y[i] - 2.0f) > 1e-3f;
  }
  peppher::Split s = peppher::auto_split_of("pauto", n);
  std::printf("split:");
  for (size_t b = 0; b < s.sizes.size(); ++b)
    std::printf(" %zu@%s", s.sizes[b],
                starpu_worker_get_type(s.workers[b]) == STARPU_CPU_WORKER ? "CPU" : "OpenCL");
  std::printf("\n");
  PEPPHER_SHUTDOWN();
  std::printf("partition_auto: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
