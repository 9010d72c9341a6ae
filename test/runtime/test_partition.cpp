// Partition hooks for generated code: vector blocks (even and uneven sizes), matrix row
// blocks and 2-D blocks, with tasks on the blocks and host access to the whole data after.
#include <cstdint>
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
}  // namespace

TEST_CASE("block_range splits like StarPU's block filters", "[partition]") {
  CHECK(peppher::block_range(10, 3, 0).offset == 0);
  CHECK(peppher::block_range(10, 3, 0).size == 4);
  CHECK(peppher::block_range(10, 3, 1).offset == 4);
  CHECK(peppher::block_range(10, 3, 2).offset == 7);
  CHECK(peppher::block_range(10, 3, 2).size == 3);
  CHECK(peppher::block_range(9, 3, 2).size == 3);
}

TEST_CASE("vector blocks: tasks per block, whole data on the host after", "[partition]") {
  Session session;
  std::vector<std::uint32_t> init(10);
  for (std::size_t i = 0; i < init.size(); ++i) init[i] = std::uint32_t(i);
  Vector<std::uint32_t> v(init);

  const auto blocks = v.partition_blocks(3);
  REQUIRE(blocks.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto range = peppher::block_range(10, 3, k);
    CHECK(starpu_vector_get_nx(blocks[k]) == range.size);
    affine(blocks[k], 2, std::uint32_t(k), alternate(k));
  }
  CHECK(v.to_std() == std::vector<std::uint32_t>{0, 2, 4, 6, 9, 11, 13, 16, 18, 20});

  v[0] = 100;  // host write, then the same partition again: the plan is reused
  const auto again = v.partition_blocks(3);
  CHECK(again == blocks);
  for (std::size_t k = 0; k < 3; ++k) affine(again[k], 1, 1, alternate(k + 1));
  affine(v.handle_for_task(), 1, 1, Where::Any);  // whole-data call after a partitioned one
  CHECK(v.to_std() == std::vector<std::uint32_t>{102, 4, 6, 8, 11, 13, 15, 18, 20, 22});

  const auto uneven = v.partition_sizes({2, 5, 3});
  REQUIRE(uneven.size() == 3);
  CHECK(starpu_vector_get_nx(uneven[1]) == 5);
  affine(uneven[1], 0, 7, alternate(1));
  CHECK(v.to_std() == std::vector<std::uint32_t>{102, 4, 7, 7, 7, 7, 7, 18, 20, 22});

  CHECK_THROWS_AS(v.partition_sizes({2, 2}), peppher::Error);
  CHECK_THROWS_AS(v.partition_blocks(11), peppher::Error);
  CHECK_THROWS_AS(v.partition_blocks(0), peppher::Error);
}

TEST_CASE("matrix row blocks and 2-D blocks", "[partition]") {
  Session session;
  Matrix<std::uint32_t> m = Matrix<std::uint32_t>::padded(5, 7, 8);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 7; ++j) m(i, j) = std::uint32_t(10 * i + j);

  const auto rows = m.partition_rows(2);
  REQUIRE(rows.size() == 2);
  CHECK(starpu_matrix_get_ny(rows[0]) == 3);
  CHECK(starpu_matrix_get_ny(rows[1]) == 2);
  for (std::size_t k = 0; k < rows.size(); ++k)
    mat_affine(rows[k], 1, std::uint32_t(k + 1), alternate(k));
  CHECK(m(0, 0) == 1u);
  CHECK(m(4, 6) == 48u);

  const auto blocks = m.partition_blocks(2, 3);
  REQUIRE(blocks.size() == 6);
  CHECK(starpu_matrix_get_nx(blocks[0]) == 3);  // columns 0-2
  CHECK(starpu_matrix_get_nx(blocks[2]) == 2);  // columns 5-6
  CHECK(starpu_matrix_get_ny(blocks[3]) == 2);  // rows 3-4
  for (std::size_t k = 0; k < blocks.size(); ++k) mat_affine(blocks[k], 2, 0, alternate(k));
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 7; ++j) {
      const std::uint32_t want = (std::uint32_t(10 * i + j) + (i < 3 ? 1u : 2u)) * 2u;
      if (m(i, j) != want) FAIL("m(" << i << ", " << j << ") = " << m(i, j) << ", want " << want);
    }
  mat_affine(m.handle_for_task(), 1, 1, Where::Any);
  CHECK(m(0, 0) == 3u);
  CHECK(m.partition_blocks(2, 3) == blocks);  // reused plan
  mat_affine(blocks[5], 0, 0, alternate(1));
  CHECK(m(4, 6) == 0u);
  CHECK(m(4, 4) == (44u + 2u) * 2u + 1u);
}
