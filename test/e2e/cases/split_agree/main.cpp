// SRAD-like: two interfaces take turns on the same two matrices every iteration (sgrad:
// C = f(J); supdate: J = g(C)), both partitioned with '?'. Each alone would size its split
// differently (sgrad is faster on OpenCL, supdate on the CPU); together they must agree on
// one split, so that the blocks stay where they are between the calls.
// Arguments: rows cols iters steady (iterations counted after the calibration).
// Prints the iterations the calibration took, the gathers and partitions of the containers
// during the steady iterations, both interfaces' splits and the verdict.
#include <peppher/partition.h>         // peppher::partition_counts
#include <peppher/partitioned_call.h>  // peppher::auto_split_of

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

namespace {

void print_split(const char* iface, std::size_t rows) {
  peppher::Split s = peppher::auto_split_of(iface, rows);
  std::printf("split %s:", iface);
  for (std::size_t b = 0; b < s.sizes.size(); ++b)
    std::printf(" %zu@%s", s.sizes[b],
                starpu_worker_get_type(s.workers[b]) == STARPU_CPU_WORKER ? "CPU" : "OpenCL");
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t rows = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1024;
  const std::size_t cols = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 64;
  const int iters = argc > 3 ? std::atoi(argv[3]) : 60;
  const int steady = argc > 4 ? std::atoi(argv[4]) : 10;
  PEPPHER_INITIALIZE();
  peppher::Matrix<float> J(rows, cols), C(rows, cols);
  std::vector<float> ref(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      J(r, c) = ref[r * cols + c] = float((r * cols + c) % 1000);
  auto iteration = [&] {
    sgrad(J, C, iters);
    supdate(C, J, iters);
    for (float& x : ref) x = (x + 2.0f) * 0.5f + 1.0f;
  };

  // The first calls split equally, which calibrates both interfaces' history models; then
  // the split is sized from both models at once.
  int calibration = 0;
  while (calibration < 60 && (peppher::auto_split_of("sgrad", rows).sizes.empty() ||
                              peppher::auto_split_of("supdate", rows).sizes.empty())) {
    iteration();
    ++calibration;
  }
  std::printf("calibrated after %d iterations\n", calibration);

  const peppher::PartitionCounts before = peppher::partition_counts();
  for (int i = 0; i < steady; ++i) iteration();
  const peppher::PartitionCounts after = peppher::partition_counts();
  std::printf("steady iterations: %d gathers: %llu partitions: %llu\n", steady,
              static_cast<unsigned long long>(after.gathers - before.gathers),
              static_cast<unsigned long long>(after.partitions - before.partitions));
  print_split("sgrad", rows);
  print_split("supdate", rows);

  int wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) wrong += J(r, c) != ref[r * cols + c];
  PEPPHER_SHUTDOWN();
  std::printf("split_agree: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
