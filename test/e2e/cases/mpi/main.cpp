// Distributed execution end to end (run with mpirun -np 1, 2, 4, or alone): every rank runs
// this same program; each check prints "rank R: <name>: ok|WRONG" and the program exits
// non-zero on the ranks where any is wrong. Every rank must see the sequential results.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "peppher.h"

namespace {

int wrong_checks = 0;

void report(const char* name, bool ok) {
  std::printf("rank %d: %s: %s\n", peppher::rank(), name, ok ? "ok" : "WRONG");
  wrong_checks += ok ? 0 : 1;
}

// Partitioned calls on Vectors, consecutive ones with the same split, host reads between.
void vectors() {
  const size_t n = 1001;
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  pmap_vec(x, y, 300, 2.0f);  // 4 blocks
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == 2.0f * static_cast<float>(i);
  report("partitioned call, then host reads", ok);

  scale_vec(y, 0.5f);  // unpartitioned: runs on the owner of y
  ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == static_cast<float>(i);
  report("unpartitioned call after a partitioned one", ok);

  // The same split again and again: the blocks stay on their owners, nothing moves.
  pmap_vec(y, x, 300, 2.0f);
  const std::size_t before = peppher::mpi::bytes_sent();
  for (int k = 0; k < 3; ++k) {
    pmap_vec(x, y, 300, 0.5f);
    pmap_vec(y, x, 300, 2.0f);
  }
  pmap_vec(x, y, 300, 0.5f);
  report("consecutive partitioned calls move no data", peppher::mpi::bytes_sent() == before);
  ok = true;
  for (size_t i = 0; i < n; ++i)
    ok = ok && y[i] == static_cast<float>(i) && x[i] == 2.0f * static_cast<float>(i);
  report("consecutive partitioned calls", ok);
  // The host reads above fetched every block from its owner: each rank that owns a block
  // sent it (the counters do count).
  const bool owns_a_block = peppher::rank() < 4;
  report("host reads fetch the blocks from their owners",
         peppher::nranks() == 1 || !owns_a_block || peppher::mpi::bytes_sent() > before);

  // A host write that differs between ranks: the owner's (rank 0's) value is the one the
  // next call sees, on every rank.
  y[5] = peppher::rank() == 0 ? 100.0f : -1.0f;
  scale_vec(y, 2.0f);
  ok = y[5] == 200.0f && y[6] == 12.0f;
  report("host write taken from the owner", ok);
}

// Raw pointers: every rank's array holds the result after the call.
void raw_pointers() {
  const int n = 777;
  std::vector<float> x(n), y(n, -1.0f);
  const float coef[2] = {3.0f, 1.0f};
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  pmap_raw(x.data(), y.data(), n, 100, coef);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == 3.0f * static_cast<float>(i) + 1.0f;
  report("raw pointer blocks", ok);
}

// 2-D blocks of a Matrix.
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
}

// A stencil with a halo: each step sends only the elements around the blocks between
// ranks (h per side of each boundary between two ranks' blocks), and every rank sees the
// sequential result, bit for bit.
void halos() {
  const int n = 1001, h = 2;
  std::vector<float> want(n);
  peppher::Vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) want[i] = x[i] = static_cast<float>((i * 37) % 101);
  auto reference = [&](const std::vector<float>& in) {
    std::vector<float> out(in.size());
    for (int i = 0; i < n; ++i)
      out[i] = in[i - h < 0 ? 0 : i - h] + 2.0f * in[i] + in[i + h >= n ? n - 1 : i + h];
    return out;
  };
  const int bs2 = 91;  // 11 blocks of 91 elements
  stencil_vec(x, y, bs2, h);
  want = reference(want);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == want[i];
  report("stencil with a halo", ok);

  // Steps with the same split: only halos move. Block k lives on rank k * nranks / 11;
  // this rank sends h elements for each side of its blocks that borders another rank's.
  const int blocks = 11, ranks = peppher::nranks(), me = peppher::rank();
  auto owner = [&](int k) { return k * ranks / blocks; };
  std::size_t expect = 0;
  for (int k = 0; k + 1 < blocks; ++k) {
    if (owner(k) == owner(k + 1)) continue;
    if (owner(k) == me) expect += h * sizeof(float);      // its last elements go down
    if (owner(k + 1) == me) expect += h * sizeof(float);  // its first elements go up
  }
  stencil_vec(y, x, bs2, h);  // the first call after host reads: blocks go back home
  want = reference(want);
  const std::size_t before = peppher::mpi::bytes_sent();
  for (int s = 0; s < 2; ++s) {
    stencil_vec(x, y, bs2, h);
    stencil_vec(y, x, bs2, h);
    want = reference(reference(want));
  }
  const std::size_t sent = peppher::mpi::bytes_sent() - before;
  report("a stencil step sends only its halos", sent == 4 * expect);
  if (sent != 4 * expect)
    std::printf("rank %d: %zu bytes sent in 4 steps, expected %zu\n", me, sent, 4 * expect);
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && x[i] == want[i];
  report("stencil steps with a halo", ok);
}

// Owner of block k of 4 (docs/MPI.md: block k of B lives on rank k * nranks / B).
int owner_of(int k) {
  return k * peppher::nranks() / 4;
}

// The first partitioned call after the host filled x sends each of x's blocks from rank 0
// to its owner, once; y, which that call only writes, sends nothing (its old values are
// needed nowhere).
void write_only_first_call() {
  const size_t n = 1200;
  const int bs = 300;  // 4 blocks of 1200 bytes
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  const std::size_t before = peppher::mpi::bytes_sent();
  pmap_vec(x, y, bs, 3.0f);
  const std::size_t sent = peppher::mpi::bytes_sent() - before;
  std::size_t expect = 0;  // x's blocks that live elsewhere than rank 0, sent by rank 0
  for (int k = 0; k < 4; ++k)
    if (peppher::rank() == 0 && owner_of(k) != 0) expect += 300 * sizeof(float);
  report("a first call that only writes a container sends none of it",
         sent == expect && y[1199] == 3597.0f);
  if (sent != expect)
    std::printf("rank %d: %zu bytes sent, expected %zu\n", peppher::rank(), sent, expect);
}

// An element read of a Vector partitioned over the ranks fetches only the block holding
// it: its owner sends that block to every other rank, and nothing is gathered, so the
// next call with the same split moves nothing.
void element_reads() {
  const size_t n = 1200;
  const int bs = 300;  // 4 blocks
  const std::size_t block_bytes = 300 * sizeof(float);
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  pmap_vec(x, y, bs, 2.0f);
  const std::size_t before = peppher::mpi::bytes_sent();
  const auto gathers = peppher::partition_counts().gathers;
  const float v = y[700], w = y[899];  // both in block 2
  const std::size_t sent = peppher::mpi::bytes_sent() - before;
  const std::size_t expect =
      owner_of(2) == peppher::rank() ? (peppher::nranks() - 1) * block_bytes : 0;
  report("an element read fetches only its block", v == 1400.0f && w == 1798.0f && sent == expect);
  if (sent != expect)
    std::printf("rank %d: %zu bytes sent, expected %zu\n", peppher::rank(), sent, expect);
  pmap_vec(y, x, bs, 0.5f);
  // One rank keeps gathering the whole for a host read (it moves nothing between ranks).
  report("the next partitioned call moves nothing",
         peppher::mpi::bytes_sent() == before + sent &&
             (peppher::nranks() == 1 || peppher::partition_counts().gathers == gathers) &&
             x[1199] == 1199.0f);
}

// Vectors created distributed: an init kernel creates each block on its owner, further
// calls keep them there, element reads fetch one block, the whole comes on demand.
void distributed_vectors() {
  const size_t n = 1200;
  const int bs = 300;  // 4 blocks
  const std::size_t block_bytes = 300 * sizeof(float);
  const int me = peppher::rank();
  std::size_t mine = 0;  // bytes of the blocks this rank owns
  for (int k = 0; k < 4; ++k) mine += owner_of(k) == me ? block_bytes : 0;

  const std::size_t before = peppher::mpi::bytes_sent();
  peppher::Vector<float> x(n, peppher::distributed), y(n, peppher::distributed);
  report("a distributed vector has no host memory", x.host_bytes() == 0 && x.is_distributed());
  pinit_vec(x, bs, 0);       // x[i] = i, each block written by its owner
  pmap_vec(x, y, bs, 2.0f);  // y = 2x
  pmap_vec(y, x, bs, 0.5f);  // x = y / 2
  report("creation, init and calls move no data", peppher::mpi::bytes_sent() == before);
  report("each rank holds only its own blocks",
         x.is_distributed() && x.host_bytes() == mine && y.host_bytes() == mine);
  if (x.host_bytes() != mine)
    std::printf("rank %d: %zu bytes on the host, expected %zu\n", me, x.host_bytes(), mine);

  const std::size_t b0 = peppher::mpi::bytes_sent();
  const float v = y[700], w = y[650];  // block 2
  const std::size_t sent = peppher::mpi::bytes_sent() - b0;
  const std::size_t expect = owner_of(2) == me ? (peppher::nranks() - 1) * block_bytes : 0;
  report("an element read of a distributed vector moves one block",
         v == 1400.0f && w == 1300.0f && sent == expect && y.is_distributed() &&
             y.host_bytes() == mine + (owner_of(2) == me ? 0 : block_bytes));
  const std::size_t b1 = peppher::mpi::bytes_sent();
  pmap_vec(y, x, bs, 0.25f);  // x = y / 4
  report("after an element read the next call moves nothing",
         peppher::mpi::bytes_sent() == b1 && x.is_distributed());

  // The whole on every rank: the sequential values; then an ordinary vector.
  const std::vector<float> all = x.to_std();
  bool ok = !x.is_distributed() && all.size() == n;
  for (size_t i = 0; i < all.size(); ++i) ok = ok && all[i] == 0.5f * static_cast<float>(i);
  report("a distributed vector read whole", ok);
  pmap_vec(x, y, bs, 4.0f);  // y = 2i
  ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && y[i] == 2.0f * static_cast<float>(i);
  report("calls after the whole was read", ok);
}

// A stencil with a halo on Vectors created distributed: the init kernel and the step send
// only the halo elements across the boundaries between two ranks' blocks.
void distributed_stencil() {
  const int n = 1001, h = 2, bs = 91;  // 11 blocks of 91 elements
  const int blocks = 11, ranks = peppher::nranks(), me = peppher::rank();
  auto owner = [&](int k) { return k * ranks / blocks; };
  std::size_t expect = 0;
  for (int k = 0; k + 1 < blocks; ++k) {
    if (owner(k) == owner(k + 1)) continue;
    if (owner(k) == me) expect += h * sizeof(float);
    if (owner(k + 1) == me) expect += h * sizeof(float);
  }
  const std::size_t before = peppher::mpi::bytes_sent();
  peppher::Vector<float> x(n, peppher::distributed), y(n, peppher::distributed);
  pinit_vec(x, bs, 0);  // x[i] = i
  stencil_vec(x, y, bs, h);
  const std::size_t sent = peppher::mpi::bytes_sent() - before;
  const std::vector<float> got = y.to_std();
  bool ok = sent == expect && got.size() == static_cast<size_t>(n);
  for (int i = 0; i < n && ok; ++i) {
    const float left = static_cast<float>(i - h < 0 ? 0 : i - h);
    const float right = static_cast<float>(i + h >= n ? n - 1 : i + h);
    ok = got[i] == left + 2.0f * static_cast<float>(i) + right;
  }
  report("a stencil on distributed vectors sends only its halos", ok);
  if (sent != expect) std::printf("rank %d: %zu bytes sent, expected %zu\n", me, sent, expect);
}

// C = A * B in 2-D tiles (components/sgemm_tiles: A in row blocks, B in column blocks): the
// first call sends blocks to the ranks that read them, an identical second call sends
// nothing (C's tiles stay on their owners, A's and B's blocks are cached where read).
void tiles() {
  const size_t m = 40, k = 23, n = 37;  // tiles of 10: a 4 x 4 grid
  peppher::Matrix<float> a(m, k), b(k, n), c(m, n, -1.0f);
  for (size_t i = 0; i < m; ++i)
    for (size_t p = 0; p < k; ++p) a(i, p) = static_cast<float>((i + 2 * p) % 7) - 3.0f;
  for (size_t p = 0; p < k; ++p)
    for (size_t j = 0; j < n; ++j) b(p, j) = static_cast<float>((3 * p + j) % 5) - 2.0f;
  const std::size_t before = peppher::mpi::bytes_sent();
  sgemm_tiles(a, b, c, 10);
  const std::size_t first = peppher::mpi::bytes_sent();
  sgemm_tiles(a, b, c, 10);
  const std::size_t second = peppher::mpi::bytes_sent();
  report("a second identical tiled product moves no data",
         second == first && (peppher::nranks() == 1 || first > before));
  if (second != first || (peppher::nranks() > 1 && first == before))
    std::printf("rank %d: tiled products sent %zu then %zu bytes\n", peppher::rank(),
                first - before, second - first);
  bool ok = true;  // small integers: exact in float
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      float want = 0.0f;
      for (size_t p = 0; p < k; ++p) want += a(i, p) * b(p, j);
      ok = ok && c(i, j) == want;
    }
  report("tiled product (row blocks x column blocks)", ok);
}

}  // namespace

int main() {
  PEPPHER_INITIALIZE();
  const int nranks = peppher::nranks();
  const char* expected = std::getenv("EXPECT_RANKS");
  report("rank and nranks", peppher::rank() >= 0 && peppher::rank() < nranks &&
                                (expected == nullptr || std::atoi(expected) == nranks));
  vectors();
  raw_pointers();
  matrices();
  halos();
  write_only_first_call();
  element_reads();
  distributed_vectors();
  distributed_stencil();
  tiles();
  const int rank = peppher::rank();
  PEPPHER_SHUTDOWN();
  std::printf("rank %d of %d: %d wrong\n", rank, nranks, wrong_checks);
  return wrong_checks == 0 ? 0 : 1;
}
