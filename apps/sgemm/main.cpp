// The sgemm application: asynchronous C = A * B calls on peppher::Matrix<float> containers of
// the size given on the command line, checked (host reads wait) against a double-precision
// host reference; exits non-zero on a wrong result.   ./sgemm [size] [iterations] [tiled]
// With "tiled", every product is one call of sgemm_tiles, split into 2-D tiles of C (A in
// row blocks, B in column blocks, one task per tile); composed with --mpi the tiles are
// distributed over the ranks. The verdict line then ends with a checksum of every result.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

using peppher::Matrix;

// Fills every element of @p m (not its padding) with values in [-1, 1) from @p seed.
void fill_random(Matrix<float>& m, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  float* p = m.host_write();
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) p[i * m.ld() + j] = val(gen);
}

// A dense row-major double matrix for the host reference.
struct Dense {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> value;  // the product
  std::vector<double> scale;  // sum of |a_ip * b_pj|: the magnitude the rounding scales with
};

Dense to_dense(const Matrix<float>& m) {
  Dense d{m.rows(), m.cols(), {}, {}};
  const float* p = m.host_read();
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) d.value.push_back(p[i * m.ld() + j]);
  d.scale.assign(d.value.size(), 0.0);
  for (std::size_t i = 0; i < d.value.size(); ++i) d.scale[i] = std::fabs(d.value[i]);
  return d;
}

Dense multiply(const Dense& a, const Dense& b) {
  Dense c{a.rows, b.cols, std::vector<double>(a.rows * b.cols, 0.0),
          std::vector<double>(a.rows * b.cols, 0.0)};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t p = 0; p < a.cols; ++p) {
      const double a_ip = a.value[i * a.cols + p];
      const double s_ip = a.scale[i * a.cols + p];
      for (std::size_t j = 0; j < b.cols; ++j) {
        c.value[i * b.cols + j] += a_ip * b.value[p * b.cols + j];
        c.scale[i * b.cols + j] += s_ip * b.scale[p * b.cols + j];
      }
    }
  return c;
}

// Number of elements of @p got that differ from @p want by more than 1e-3 relative.
long count_wrong(const Matrix<float>& got, const Dense& want) {
  if (got.rows() != want.rows || got.cols() != want.cols)
    return static_cast<long>(want.value.size());
  long wrong = 0;
  const float* p = got.host_read();  // waits for the sgemm that writes it
  for (std::size_t i = 0; i < want.rows; ++i)
    for (std::size_t j = 0; j < want.cols; ++j) {
      const double w = want.value[i * want.cols + j];
      const double tol = 1e-3 * std::fmax(std::fabs(w), want.scale[i * want.cols + j]) + 1e-12;
      if (!(std::fabs(p[i * got.ld() + j] - w) <= tol)) ++wrong;
    }
  return wrong;
}

// FNV-1a over the bits of every element of @p m (not its padding), continuing @p h.
std::uint64_t checksum(const Matrix<float>& m, std::uint64_t h) {
  const float* p = m.host_read();
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &p[i * m.ld() + j], sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
  return h;
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
  // Deliberately not square and not multiples of the OpenCL tile size.
  const std::size_t m = static_cast<std::size_t>(size);
  const std::size_t k = m * 3 / 4 + 1;
  const std::size_t n = m + 3;
  const std::size_t p = m / 2 + 1;

  // Tiled: C is m x n in tiles of at most `tile` (4 x 5 of them, or fewer when small).
  const int tile = static_cast<int>((n + 3) / 4);

  PEPPHER_INITIALIZE();
  long wrong = 0;
  int calls = 0;
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
    // E = C * F waits for the sgemm writing C.
    for (auto& pr : problems) {
      sgemm(pr->a, pr->b, pr->c);
      sgemm(pr->c, f, pr->e);
      calls += 2;
    }
    const Dense fd = to_dense(f);
    for (auto& pr : problems) {
      const Dense c_ref = multiply(to_dense(pr->a), to_dense(pr->b));
      wrong += count_wrong(pr->c, c_ref);
      wrong += count_wrong(pr->e, multiply(c_ref, fd));
    }

    // Reuse the first problem's containers with new inputs written from the host: the
    // device copies left by the first round must not be used again.
    Problem& first = *problems.front();
    fill_random(first.a, 3000u);
    sgemm(first.a, first.b, first.c);
    ++calls;
    wrong += count_wrong(first.c, multiply(to_dense(first.a), to_dense(first.b)));
  }
  PEPPHER_SHUTDOWN();

  if (tiles)
    std::printf(
        "sgemm: m=%zu k=%zu n=%zu, tiles of %d, %d calls, rank %d of %d: %s "
        "checksum=%016llx\n",
        m, k, n, tile, calls, rank, nranks, wrong == 0 ? "all results correct" : "WRONG RESULTS",
        static_cast<unsigned long long>(sum));
  else
    std::printf("sgemm: m=%zu k=%zu n=%zu, %d calls: %s\n", m, k, n, calls,
                wrong == 0 ? "all results correct" : "WRONG RESULTS");
  if (wrong != 0) std::printf("sgemm: %ld wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
