// Containers created distributed (peppher::distributed) in one process: no host memory
// until the host needs the whole, blocks created by the tasks of a partitioned call, element
// reads that fetch only their block, and the whole materialised by any other access.
#include <cstdint>
#include <thread>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
using peppher::Matrix;
using peppher::Vector;

namespace {
Where alternate(std::size_t k) {
  if (k % 2 == 1 && has_opencl()) return Where::OpenCl;
  return Where::Cpu;
}

// v[i] = i over the blocks of a vector of n elements split into nparts.
void iota_blocks(const std::vector<starpu_data_handle_t>& blocks, std::size_t n) {
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto range = peppher::block_range(n, blocks.size(), k);
    fill(blocks[k], std::uint32_t(range.offset), 1, alternate(k));
  }
}
}  // namespace

TEST_CASE("a distributed vector: blocks from a call, element reads fetch only their block",
          "[distributed]") {
  Session session;
  Vector<std::uint32_t> v(10, peppher::distributed);
  CHECK(v.size() == 10);
  CHECK(v.is_distributed());
  CHECK(v.host_bytes() == 0);
  CHECK(v.storage().data() == nullptr);  // no whole anywhere

  const auto blocks = v.partition_blocks(3);
  REQUIRE(blocks.size() == 3);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK(starpu_vector_get_nx(blocks[k]) == peppher::block_range(10, 3, k).size);
  iota_blocks(blocks, 10);
  for (std::size_t k = 0; k < 3; ++k) affine(blocks[k], 2, 1, alternate(k + 1));  // 2i + 1

  // Element reads: only the blocks holding them, no gather, still no whole.
  const auto counts = peppher::partition_counts();
  CHECK(v[4] == 9u);
  CHECK(v[6] == 13u);
  const Vector<std::uint32_t>& cv = v;
  CHECK(cv[0] == 1u);
  CHECK(cv.at(9) == 19u);
  CHECK(v.is_distributed());
  CHECK(v.storage().data() == nullptr);
  CHECK(peppher::partition_counts().gathers == counts.gathers);

  // The same split again: the same blocks, where they were.
  REQUIRE(v.partition_blocks(3) == blocks);
  for (std::size_t k = 0; k < 3; ++k) affine(blocks[k], 1, 1, alternate(k));  // 2i + 2
  CHECK(v[5] == 12u);
  CHECK(v.is_distributed());

  // The whole: materialised, an ordinary vector from then on.
  std::vector<std::uint32_t> want;
  for (std::uint32_t i = 0; i < 10; ++i) want.push_back(2 * i + 2);
  CHECK(v.to_std() == want);
  CHECK_FALSE(v.is_distributed());
  CHECK(v.host_bytes() == 10 * sizeof(std::uint32_t));
  const auto halves = v.partition_blocks(2);
  for (std::size_t k = 0; k < 2; ++k) affine(halves[k], 1, 3, alternate(k));
  CHECK(v[0] == 5u);
  CHECK(v[9] == 23u);
}

TEST_CASE("a distributed vector used otherwise first: zeros, then an ordinary vector",
          "[distributed]") {
  Session session;
  Vector<float> a(5, peppher::distributed);
  CHECK(a[3] == 0.0f);  // no call yet: the whole is zeros
  CHECK_FALSE(a.is_distributed());

  Vector<std::uint32_t> b(4, peppher::distributed);
  b[1] = 7;  // host write
  CHECK(b.to_std() == std::vector<std::uint32_t>{0, 7, 0, 0});

  Vector<std::uint32_t> c(6, peppher::distributed);
  affine(c.handle_for_task(), 1, 3, Where::Any);  // a whole-data call
  CHECK(c.to_std() == std::vector<std::uint32_t>(6, 3));

  // A call that reads the blocks before anything wrote them sees zeros.
  Vector<std::uint32_t> d(12, peppher::distributed);
  const auto quarters = d.partition_blocks(4);
  for (std::size_t k = 0; k < 4; ++k) affine(quarters[k], 5, std::uint32_t(k), alternate(k));
  CHECK(d[11] == 3u);
  // Another split: the whole first, then as for any container.
  const auto thirds = d.partition_blocks(3);
  CHECK_FALSE(d.is_distributed());
  for (std::size_t k = 0; k < 3; ++k) affine(thirds[k], 2, 0, alternate(k));
  CHECK(d.to_std() == std::vector<std::uint32_t>{0, 0, 0, 2, 2, 2, 4, 4, 4, 6, 6, 6});

  // Copies are ordinary; moves keep the blocks; resize keeps the values.
  Vector<std::uint32_t> e(6, peppher::distributed);
  iota_blocks(e.partition_blocks(2), 6);
  Vector<std::uint32_t> moved(std::move(e));
  CHECK(moved.is_distributed());
  Vector<std::uint32_t> copy(moved);
  CHECK_FALSE(copy.is_distributed());
  CHECK(copy.to_std() == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
  CHECK_FALSE(moved.is_distributed());  // the copy read the whole
  Vector<std::uint32_t> f(4, peppher::distributed);
  iota_blocks(f.partition_blocks(2), 4);
  CHECK(f[3] == 3u);
  f.resize(6);
  CHECK(f.to_std() == std::vector<std::uint32_t>{0, 1, 2, 3, 0, 0});

  // Misuse is an error, not a crash.
  Vector<std::uint32_t> g(4, peppher::distributed);
  CHECK_THROWS_AS(g.partition_blocks(5), peppher::Error);
  CHECK_THROWS_AS(g.partition_sizes({1, 2}), peppher::Error);
  CHECK(g.is_distributed());
}

TEST_CASE("a distributed matrix: 2-D blocks, element reads, the whole", "[distributed]") {
  Session session;
  Matrix<std::uint32_t> m(6, 5, peppher::distributed);
  CHECK(m.is_distributed());
  const auto blocks = m.partition_blocks(2, 2);
  REQUIRE(blocks.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) mat_affine(blocks[k], 1, std::uint32_t(k + 1), alternate(k));
  // Block (bi, bj): rows [3 bi, 3 bi + 3), columns [0, 3) or [3, 5); value bi * 2 + bj + 1.
  auto want = [](std::size_t i, std::size_t j) { return std::uint32_t(i / 3 * 2 + j / 3 + 1); };
  CHECK(m(4, 4) == want(4, 4));
  CHECK(m(1, 2) == want(1, 2));
  CHECK(m.is_distributed());
  bool ok = true;
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 5; ++j) ok = ok && m(i, j) == want(i, j);
  CHECK(ok);
  CHECK(m.is_distributed());  // element reads only
  const std::vector<std::uint32_t> all = m.to_std();
  CHECK_FALSE(m.is_distributed());
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 5; ++j) CHECK(all[i * 5 + j] == want(i, j));

  Matrix<std::uint32_t> rows(7, 3, peppher::distributed);
  const auto bands = rows.partition_rows(3);
  for (std::size_t k = 0; k < 3; ++k) mat_affine(bands[k], 1, std::uint32_t(10 * k), alternate(k));
  CHECK(rows(6, 2) == 20u);
  CHECK(rows(0, 0) == 0u);
  CHECK(rows.to_std()[3 * 3] == 10u);  // row 3 is in the second band (rows 3-4)
}

TEST_CASE("threads read a distributed vector's elements at the same time", "[distributed]") {
  Session session;
  Vector<std::uint32_t> v(400, peppher::distributed);
  iota_blocks(v.partition_blocks(4), 400);
  std::vector<int> wrong(2, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&v, &wrong, t] {
      const Vector<std::uint32_t>& cv = v;
      for (std::size_t i = 0; i < 400; ++i) {
        const std::size_t at = t == 0 ? i : 399 - i;
        wrong[t] += cv[at] == at ? 0 : 1;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(wrong[0] == 0);
  CHECK(wrong[1] == 0);
  CHECK(v.is_distributed());
}

TEST_CASE("shutdown materialises a distributed vector", "[distributed]") {
  Vector<std::uint32_t> v(6, peppher::distributed);
  {
    Session session;
    iota_blocks(v.partition_blocks(3), 6);
  }
  CHECK_FALSE(v.is_distributed());
  CHECK(v.to_std() == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("a vector materialised by shutdown and destroyed after it is forgotten",
          "[distributed]") {
  {
    Vector<std::uint32_t> v(6, peppher::distributed);
    {
      Session session;
      iota_blocks(v.partition_blocks(3), 6);
    }
    // Shutdown detached it: a dead vector must not stay among the live containers.
    CHECK_FALSE(peppher::detail::is_tracked(&v.storage()));
  }
  // The next session's shutdown must not find the dead vector among the live containers
  // (shutdown's materialisation re-entered it into the registry: a crash here before).
  Session session;
  Vector<std::uint32_t> w(std::vector<std::uint32_t>{1, 2, 3});
  iota_blocks(w.partition_blocks(3), 3);
  CHECK(w.to_std() == std::vector<std::uint32_t>{0, 1, 2});
}
