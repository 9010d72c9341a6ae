// Partitioned calls end to end: each check prints one line "<name>: ok|WRONG"; the
// program exits non-zero when any is wrong. Argument: the number of rounds of the
// many-blocks call used to observe both worker kinds (default 4).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

namespace {

int wrong_checks = 0;

void report(const char* name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
  wrong_checks += ok ? 0 : 1;
}

// 1-D Vector blocks with an uneven split (1001 elements, at most 300 per block: 251, 250,
// 250, 250), then host access, an unpartitioned call, and the same partition again.
void vectors() {
  const size_t n = 1001;
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  pmap_vec(x, y, 300, 2.0f);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == 2.0f * static_cast<float>(i);
  report("vector blocks, host access after", ok);

  scale_vec(y, 0.5f);  // the whole vector, unpartitioned
  ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == static_cast<float>(i);
  report("unpartitioned call after a partitioned one", ok);

  for (int k = 0; k < 3; ++k) {  // the same shapes: the partition plans are reused
    pmap_vec(y, x, 300, 2.0f);
    pmap_vec(x, y, 300, 0.5f);
  }
  ok = true;
  for (size_t i = 0; i < n; ++i)
    ok = ok && y[i] == static_cast<float>(i) && x[i] == 2.0f * static_cast<float>(i);
  report("consecutive partitioned calls", ok);

  pmap_vec(x, y, 1000, 1.0f);  // 2 blocks of 501 and 500
  ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == 2.0f * static_cast<float>(i);
  report("another block size on the same vectors", ok);
}

// Raw pointers: registered for the call, split, gathered and copied back before return.
void raw_pointers() {
  const int n = 777;
  std::vector<float> x(n), y(n, -1.0f);
  const float coef[2] = {3.0f, 1.0f};
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  pmap_raw(x.data(), y.data(), n, 100, coef);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == 3.0f * static_cast<float>(i) + 1.0f;
  report("raw pointer blocks", ok);

  // A raw row-major matrix (descRowWidth) in row blocks: 37 rows of 11 by 5 rows, 8 blocks.
  const int rows = 37, cols = 11;
  std::vector<float> a(rows * cols);
  for (int k = 0; k < rows * cols; ++k) a[k] = static_cast<float>(k);
  prow_raw(a.data(), rows, cols, 5, 2.0f);
  ok = true;
  for (int k = 0; k < rows * cols; ++k) ok = ok && a[k] == 2.0f * static_cast<float>(k + k % cols);
  report("raw row-major matrix in row blocks", ok);
}

// 2-D blocks of a Matrix (301 x 203 in blocks of at most 100 x 64: 4 x 4 uneven blocks).
void matrices() {
  const size_t rows = 301, cols = 203;
  peppher::Matrix<float> m(rows, cols);
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) m(i, j) = static_cast<float>(i * cols + j);
  pmat_scale(m, 100, 64, 2.0f);
  pmat_scale(m, 100, 64, 1.5f);
  bool ok = true;
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) ok = ok && m(i, j) == 3.0f * static_cast<float>(i * cols + j);
  report("matrix 2-D blocks", ok);

  // Row blocks of a Matrix matched with blocks of a Vector in the same call.
  peppher::Vector<float> sums(rows);
  prow_sum(m, sums, 70);
  ok = true;
  for (size_t i = 0; i < rows; ++i) {
    double expect = 0;
    for (size_t j = 0; j < cols; ++j) expect += 3.0 * static_cast<double>(i * cols + j);
    ok = ok && std::fabs(sums[i] - expect) <= 1e-4 * expect + 1;
  }
  report("matrix row blocks with vector blocks", ok);
}

// Many blocks per call, repeated: with a CPU worker and the OpenCL device, both take some.
void many_blocks(int rounds) {
  const size_t n = 1 << 20;
  peppher::Vector<float> x(n, 1.0f), y(n);
  for (int r = 0; r < rounds; ++r) pmap_vec(x, y, static_cast<int>(n / 16), static_cast<float>(r));
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == static_cast<float>(rounds - 1);
  report("16 blocks per call", ok);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 4;
  PEPPHER_INITIALIZE();
  vectors();
  raw_pointers();
  matrices();
  many_blocks(rounds);
  PEPPHER_SHUTDOWN();
  std::printf("partition: %d wrong\n", wrong_checks);
  return wrong_checks == 0 ? 0 : 1;
}
