// The sgemm_tiles application: C = A * B, then E = C * F, each product one call of sgemm_tiles
// on peppher::Matrix<float> containers of the size given on the command line, split into 2-D
// tiles of C (A in row blocks, B in column blocks, one task per tile); composed with --mpi the
// tiles are distributed over the ranks. A is rewritten from the host between iterations (its
// blocks then move again). Checked (host reads wait) against a double-precision host
// reference; the verdict line ends with a checksum of every result; exits non-zero on a wrong
// result.   ./sgemm_tiles [size] [iterations]
// (apps/sgemm is the same product as one task per call, with its hand-written StarPU version.)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "../../components/sgemm_tiles.h"  // the component (light form)
#include "../sgemm/sgemm_common.h"
#include "peppher.h"

namespace {

using peppher::Matrix;
using sgemm_app::Dense;

// The shared helpers (sgemm_common.h) on a Matrix's host copy.
void fill_random(Matrix<float>& m, unsigned seed) {
  sgemm_app::fill(m.host_write(), m.rows(), m.cols(), m.ld(), seed);
}
Dense to_dense(const Matrix<float>& m) {
  return sgemm_app::dense(m.host_read(), m.rows(), m.cols(), m.ld());
}
long count_wrong(const Matrix<float>& got, const Dense& want) {
  return sgemm_app::count_wrong(got.host_read(), got.rows(), got.cols(), got.ld(), want);
}
std::uint64_t checksum(const Matrix<float>& m, std::uint64_t h) {
  return sgemm_app::fold(m.host_read(), m.rows(), m.cols(), m.ld(), h);
}

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 4;
  if (size < 1 || iterations < 1 || argc > 3) {
    std::fprintf(stderr, "usage: sgemm_tiles [size >= 1] [iterations >= 1]\n");
    return 2;
  }
  const sgemm_app::Shape shape = sgemm_app::shape(size);
  const std::size_t m = shape.m, k = shape.k, n = shape.n, p = shape.p;
  // C is m x n in tiles of at most `tile` (4 x 5 of them, or fewer when small).
  const int tile = static_cast<int>((n + 3) / 4);

  PEPPHER_INITIALIZE();
  long wrong = 0;
  int calls = 0;
  std::uint64_t sum = 1469598103934665603ull;
  const int rank = peppher::rank(), nranks = peppher::nranks();  // used after shutdown too
  {
    Matrix<float> a(m, k), b(k, n), c(m, n, -7.0f), f(n, p), e(m, p, -7.0f);
    fill_random(b, 2000u);
    fill_random(f, 99u);
    const Dense bd = to_dense(b), fd = to_dense(f);
    for (int it = 0; it < iterations; ++it) {
      fill_random(a, 1000u + static_cast<unsigned>(it));
      sgemm_tiles(a, b, c, tile);  // C in tiles: A's row blocks, B's column blocks
      sgemm_tiles(c, f, e, tile);  // C read in row blocks now
      calls += 2;
      const Dense c_ref = sgemm_app::multiply(to_dense(a), bd);
      wrong += count_wrong(c, c_ref);
      wrong += count_wrong(e, sgemm_app::multiply(c_ref, fd));
      sum = checksum(e, checksum(c, sum));
    }
  }
  PEPPHER_SHUTDOWN();

  std::printf(
      "sgemm_tiles: m=%zu k=%zu n=%zu, tiles of %d, %d calls, rank %d of %d: %s "
      "checksum=%016llx\n",
      m, k, n, tile, calls, rank, nranks, wrong == 0 ? "all results correct" : "WRONG RESULTS",
      static_cast<unsigned long long>(sum));
  if (wrong != 0) std::printf("sgemm_tiles: %ld wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
