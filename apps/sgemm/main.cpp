// The sgemm application: asynchronous C = A * B calls on peppher::Matrix<float> containers of
// the size given on the command line, checked (host reads wait) against a double-precision
// host reference; exits non-zero on a wrong result.   ./sgemm [size] [iterations]
// The verdict line ends with a checksum of every result and the seconds from the first call to
// the last result on the host. (apps/sgemm_tiles: the product in 2-D tiles of C.)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "../../components/sgemm.h"  // the component (light form)
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

// One independent problem: C = A * B, then E = C * F (F shared by all problems).
struct Problem {
  Matrix<float> a, b, c, e;
};

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 4;
  if (size < 1 || iterations < 1 || argc > 3) {
    std::fprintf(stderr, "usage: sgemm [size >= 1] [iterations >= 1]\n");
    return 2;
  }
  const sgemm_app::Shape shape = sgemm_app::shape(size);
  const std::size_t m = shape.m, k = shape.k, n = shape.n, p = shape.p;

  PEPPHER_INITIALIZE();
  long wrong = 0;
  int calls = 0;
  double seconds = 0.0;
  std::uint64_t sum = 1469598103934665603ull;
  {
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

  std::printf("sgemm: m=%zu k=%zu n=%zu, %d calls: %s checksum=%016llx time=%.6f\n", m, k, n, calls,
              wrong == 0 ? "all results correct" : "WRONG RESULTS",
              static_cast<unsigned long long>(sum), seconds);
  if (wrong != 0) std::printf("sgemm: %ld wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
