// The sgemm application: asynchronous C = A * B calls on peppher::Matrix<float> containers of
// the size given on the command line, checked (host reads wait) against a double-precision
// host reference; exits non-zero on a wrong result.   ./sgemm [size] [iterations] [tiled]
// With "tiled", every product is one call of sgemm_tiles, split into 2-D tiles of C (A in
// row blocks, B in column blocks, one task per tile); composed with --mpi the tiles are
// distributed over the ranks. The verdict line ends with a checksum of every result, and
// without "tiled" with the seconds from the first call to the last result on the host.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../../components/sgemm.h"  // the components (light form)
#include "../common/app_check.h"     // app::now
#include "peppher.h"
#include "sgemm_common.h"

namespace {

using peppher::Matrix;
using sgemm_app::Dense;
using sgemm_app::multiply;

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

// The tiled mode: each iteration C = A * B and E = C * F with sgemm_tiles, tiles of at most
// @p tile x @p tile, A rewritten from the host between iterations (its blocks then move
// again). Returns the wrong elements; @p sum gets the checksum of every C and E.
long tiled(std::size_t m, std::size_t k, std::size_t n, std::size_t p, int tile, int iterations,
           int& calls, std::uint64_t& sum) {
  long wrong = 0;
  Matrix<float> a(m, k), b(k, n), c(m, n, -7.0f), f(n, p), e(m, p, -7.0f);
  fill_random(b, 2000u);
  fill_random(f, 99u);
  const Dense bd = to_dense(b), fd = to_dense(f);
  for (int it = 0; it < iterations; ++it) {
    fill_random(a, 1000u + static_cast<unsigned>(it));
    sgemm_tiles(a, b, c, tile);  // C in tiles: A's row blocks, B's column blocks
    sgemm_tiles(c, f, e, tile);  // C read in row blocks now
    calls += 2;
    const Dense c_ref = multiply(to_dense(a), bd);
    wrong += count_wrong(c, c_ref);
    wrong += count_wrong(e, multiply(c_ref, fd));
    sum = checksum(e, checksum(c, sum));
  }
  return wrong;
}

// One independent problem: C = A * B, then E = C * F (F shared by all problems).
struct Problem {
  Matrix<float> a, b, c, e;
};

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 4;
  const bool tiles = argc > 3 && std::string(argv[3]) == "tiled";
  if (size < 1 || iterations < 1 || (argc > 3 && !tiles)) {
    std::fprintf(stderr, "usage: sgemm [size >= 1] [iterations >= 1] [tiled]\n");
    return 2;
  }
  const sgemm_app::Shape shape = sgemm_app::shape(size);
  const std::size_t m = shape.m, k = shape.k, n = shape.n, p = shape.p;

  // Tiled: C is m x n in tiles of at most `tile` (4 x 5 of them, or fewer when small).
  const int tile = static_cast<int>((n + 3) / 4);

  PEPPHER_INITIALIZE();
  long wrong = 0;
  int calls = 0;
  double seconds = 0.0;
  std::uint64_t sum = 1469598103934665603ull;
  const int rank = peppher::rank(), nranks = peppher::nranks();  // used after shutdown too
  if (tiles) {
    wrong = tiled(m, k, n, p, tile, iterations, calls, sum);
  } else {
    Matrix<float> f(n, p);
    fill_random(f, 99u);
    std::vector<std::unique_ptr<Problem>> problems;
    for (int it = 0; it < iterations; ++it) {
      auto pr = std::make_unique<Problem>();
      pr->a = Matrix<float>(m, k);
      // Every other B has a padded leading dimension.
      pr->b = it % 2 == 0 ? Matrix<float>(k, n) : Matrix<float>::padded(k, n, n + 5);
      pr->c = Matrix<float>(m, n, -7.0f);  // overwritten by sgemm
      pr->e = Matrix<float>(m, p, -7.0f);
      fill_random(pr->a, 1000u + static_cast<unsigned>(it));
      fill_random(pr->b, 2000u + static_cast<unsigned>(it));
      problems.push_back(std::move(pr));
    }

    // Submit everything first: independent problems may run on different workers at once;
    // E = C * F waits for the sgemm writing C. Timed until every result is on the host.
    const double t0 = app::now();
    for (auto& pr : problems) {
      sgemm(pr->a, pr->b, pr->c);
      sgemm(pr->c, f, pr->e);
      calls += 2;
    }
    for (auto& pr : problems) {  // host reads: wait for the products
      pr->c.host_read();
      pr->e.host_read();
    }
    seconds = app::now() - t0;
    const Dense fd = to_dense(f);
    for (auto& pr : problems) {
      const Dense c_ref = multiply(to_dense(pr->a), to_dense(pr->b));
      wrong += count_wrong(pr->c, c_ref);
      wrong += count_wrong(pr->e, multiply(c_ref, fd));
      sum = checksum(pr->e, checksum(pr->c, sum));
    }

    // Reuse the first problem's containers with new inputs written from the host: the
    // device copies left by the first round must not be used again.
    Problem& first = *problems.front();
    fill_random(first.a, 3000u);
    const double t1 = app::now();
    sgemm(first.a, first.b, first.c);
    ++calls;
    first.c.host_read();
    seconds += app::now() - t1;
    wrong += count_wrong(first.c, multiply(to_dense(first.a), to_dense(first.b)));
    sum = checksum(first.c, sum);
  }
  PEPPHER_SHUTDOWN();

  if (tiles)
    std::printf(
        "sgemm: m=%zu k=%zu n=%zu, tiles of %d, %d calls, rank %d of %d: %s "
        "checksum=%016llx\n",
        m, k, n, tile, calls, rank, nranks, wrong == 0 ? "all results correct" : "WRONG RESULTS",
        static_cast<unsigned long long>(sum));
  else
    std::printf("sgemm: m=%zu k=%zu n=%zu, %d calls: %s checksum=%016llx time=%.6f\n", m, k, n,
                calls, wrong == 0 ? "all results correct" : "WRONG RESULTS",
                static_cast<unsigned long long>(sum), seconds);
  if (wrong != 0) std::printf("sgemm: %ld wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
