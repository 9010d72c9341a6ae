// The SpMV application: generates a random CSR matrix of the size given on the command
// line, computes y = A * x through the spmv component a few times, and checks every
// result against a sequential reference. Exits non-zero on a wrong result.
//   ./spmv [nrows] [nonzeros per row] [iterations] [hybrid]
// With "hybrid", each product is one call of spmv_rows whose rows are split across the CPU
// worker and the OpenCL device (paper Figure 5): equal halves until the history model is
// calibrated, then sized so that both finish together; the split chosen is printed.
// Composed with --mpi and run under mpirun, "hybrid" distributes the rows: equal blocks,
// one per worker of every rank. The verdict line ends with a checksum of every result.
#include <peppher/partitioned_call.h>  // peppher::auto_split_of, to print the hybrid split

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

struct Csr {
  int nrows = 0;
  int ncols = 0;
  std::vector<float> values;
  std::vector<int> row_offsets;
  std::vector<int> col_indices;
};

Csr random_csr(int nrows, int per_row, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> col(0, nrows - 1);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  Csr a;
  a.nrows = a.ncols = nrows;
  a.row_offsets.push_back(0);
  for (int r = 0; r < nrows; ++r) {
    int count = r % 7 == 0 ? 0 : per_row;  // some empty rows
    for (int k = 0; k < count; ++k) {
      a.col_indices.push_back(col(gen));
      a.values.push_back(val(gen));
    }
    a.row_offsets.push_back(static_cast<int>(a.values.size()));
  }
  return a;
}

std::vector<float> reference(const Csr& a, const std::vector<float>& x) {
  std::vector<float> y(a.nrows);
  for (int r = 0; r < a.nrows; ++r) {
    double sum = 0.0;
    for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
      sum += static_cast<double>(a.values[k]) * x[a.col_indices[k]];
    }
    y[r] = static_cast<float>(sum);
  }
  return y;
}

}  // namespace

int main(int argc, char** argv) {
  const int nrows = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int per_row = argc > 2 ? std::atoi(argv[2]) : 16;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 10;
  const bool hybrid = argc > 4 && std::string(argv[4]) == "hybrid";

  PEPPHER_INITIALIZE();
  int wrong = 0;
  std::uint64_t checksum = 1469598103934665603ull;  // FNV-1a over every result's bits
  for (int it = 0; it < iterations; ++it) {
    Csr a = random_csr(nrows, per_row, 1234u + static_cast<unsigned>(it));
    std::vector<float> x(a.ncols);
    for (int i = 0; i < a.ncols; ++i) x[i] = static_cast<float>((i + it) % 13) - 6.0f;
    std::vector<float> y(a.nrows, -1.0f);
    if (hybrid) {
      spmv_rows(a.nrows, static_cast<int>(a.values.size()), a.values.data(), a.row_offsets.data(),
                a.col_indices.data(), x.data(), a.ncols, y.data(), 0, a.nrows);
    } else {
      spmv(a.nrows, static_cast<int>(a.values.size()), a.values.data(), a.row_offsets.data(),
           a.col_indices.data(), x.data(), a.ncols, y.data());
    }
    std::vector<float> expected = reference(a, x);
    for (float v : y) {
      std::uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      checksum = (checksum ^ bits) * 1099511628211ull;
    }
    for (int r = 0; r < a.nrows; ++r) {
      if (std::fabs(y[r] - expected[r]) > 1e-3f * (1.0f + std::fabs(expected[r]))) ++wrong;
    }
  }
  if (hybrid && peppher::nranks() == 1) {  // several ranks: equal blocks, one per worker
    peppher::Split split = peppher::auto_split_of("spmv_rows", static_cast<size_t>(nrows));
    std::printf("spmv: hybrid split:");
    for (size_t b = 0; b < split.sizes.size(); ++b)
      std::printf(" %zu rows@%s", split.sizes[b],
                  starpu_worker_get_type(split.workers[b]) == STARPU_CPU_WORKER ? "CPU" : "OpenCL");
    std::printf("%s\n", split.sizes.empty() ? " equal blocks (model not calibrated yet)" : "");
  }
  PEPPHER_SHUTDOWN();

  std::printf("spmv: %d rows, %d nonzeros per row, %d calls: %s checksum=%016llx\n", nrows, per_row,
              iterations, wrong == 0 ? "all results correct" : "WRONG RESULTS",
              static_cast<unsigned long long>(checksum));
  if (wrong != 0) std::printf("spmv: %d wrong entries\n", wrong);
  return wrong == 0 ? 0 : 1;
}
