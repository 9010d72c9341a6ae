// The call's 2-D grid (FORMAT.md `partition="a,*"` / `"*,b"`): C = A * B in tiles, A in row
// blocks and B in column blocks through PartitionedCall, the pairing of task (i, j) with row
// block i and column block j, the count checks, and the blocks kept across calls.
#include <cstddef>
#include <string>
#include <vector>

#include "peppher/partition.h"
#include "peppher/partitioned_call.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Matrix;
using peppher_test::Session;

namespace {

// buffers: 0 R matrix A (a row block), 1 R matrix B (a column block), 2 W matrix C (a tile):
// C = A * B over the blocks' own extents (nx: columns, ny: rows, ld: the whole's).
void tile_cpu(void* b[], void*) {
  const auto* a = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(b[0]));
  const auto* m = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(b[1]));
  auto* c = reinterpret_cast<float*>(STARPU_MATRIX_GET_PTR(b[2]));
  const unsigned lda = STARPU_MATRIX_GET_LD(b[0]), ldb = STARPU_MATRIX_GET_LD(b[1]);
  const unsigned ldc = STARPU_MATRIX_GET_LD(b[2]);
  const unsigned rows = STARPU_MATRIX_GET_NY(b[2]), cols = STARPU_MATRIX_GET_NX(b[2]);
  const unsigned k = STARPU_MATRIX_GET_NX(b[0]);
  // A mispaired block shows as a shape that disagrees: the tile then holds -1.
  const bool paired = STARPU_MATRIX_GET_NY(b[0]) == rows && STARPU_MATRIX_GET_NX(b[1]) == cols &&
                      STARPU_MATRIX_GET_NY(b[1]) == k;
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (unsigned p = 0; paired && p < k; ++p) sum += a[i * lda + p] * m[p * ldb + j];
      c[i * ldc + j] = paired ? sum : -1.0f;
    }
}

starpu_codelet tile_codelet() {
  return peppher_test::make_codelet("tile", tile_cpu, nullptr, {STARPU_R, STARPU_R, STARPU_W});
}

// Small integers: every product and sum is exact in float.
Matrix<float> numbered(std::size_t rows, std::size_t cols, std::size_t ld, int seed) {
  Matrix<float> m = Matrix<float>::padded(rows, cols, ld);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      m(i, j) = static_cast<float>((static_cast<int>(i * 7 + j * 3) + seed) % 5 - 2);
  return m;
}

// One call of the tiled product with tiles of at most @p tile (rows and columns).
void multiply(starpu_codelet& cl, const Matrix<float>& a, const Matrix<float>& b, Matrix<float>& c,
              long long tile) {
  peppher::PartitionedCall call(&cl, "tile");
  call.split_rows(0, "A", a, tile);
  call.split_cols(1, "B", b, tile);
  call.split_2d(2, "C", c, tile, tile);
  call.submit();
}

long wrong_elements(const Matrix<float>& a, const Matrix<float>& b, const Matrix<float>& c) {
  long wrong = 0;
  for (std::size_t i = 0; i < c.rows(); ++i)
    for (std::size_t j = 0; j < c.cols(); ++j) {
      float want = 0.0f;
      for (std::size_t p = 0; p < a.cols(); ++p) want += a(i, p) * b(p, j);
      wrong += c(i, j) == want ? 0 : 1;
    }
  return wrong;
}

}  // namespace

TEST_CASE("grid: task (i, j) gets tile (i, j), row block i and column block j",
          "[partition][grid]") {
  Session session;
  starpu_codelet cl = tile_codelet();
  // 11 x 7 times 7 x 10 in tiles of at most 4: a 3 x 3 grid (rows 4, 4, 3; columns 4, 3, 3);
  // B padded, so a column block's ld is not its width.
  Matrix<float> a = numbered(11, 7, 7, 1), b = numbered(7, 10, 13, 2), c(11, 10, 9.0f);
  {
    peppher::PartitionedCall call(&cl, "tile");
    call.split_rows(0, "A", a, 4);
    call.split_cols(1, "B", b, 4);
    call.split_2d(2, "C", c, 4, 4);
    REQUIRE(call.blocks() == 9);
    CHECK(call.block_size(5, 0) == 4);    // task (1, 2): row block 1, 4 rows
    CHECK(call.block_offset(5, 0) == 4);  // its first row
    CHECK(call.block_size(5, 1) == 3);    // column block 2: 3 columns
    CHECK(call.block_offset(5, 1) == 7);  // its first column
    CHECK(call.block_offset(7, 0) == 8);  // task (2, 1): row block 2
    CHECK(call.block_offset(7, 1) == 4);  // column block 1
    call.submit();
  }
  CHECK(wrong_elements(a, b, c) == 0);
}

TEST_CASE("grid: consecutive calls with the same split keep the blocks", "[partition][grid]") {
  Session session;
  starpu_codelet cl = tile_codelet();
  Matrix<float> a = numbered(9, 6, 6, 3), b = numbered(6, 8, 8, 4), c(9, 8), d(9, 8);
  multiply(cl, a, b, c, 3);  // 3 x 3 tiles
  const peppher::PartitionCounts before = peppher::partition_counts();
  multiply(cl, a, b, d, 3);  // A's row blocks and B's column blocks as they are
  multiply(cl, a, b, c, 3);
  const peppher::PartitionCounts after = peppher::partition_counts();
  // d was partitioned for the first time; nothing else was partitioned again or gathered.
  CHECK(after.partitions - before.partitions == 1);
  CHECK(after.gathers == before.gathers);
  CHECK(wrong_elements(a, b, c) == 0);
  CHECK(wrong_elements(a, b, d) == 0);
}

TEST_CASE("grid: containers created distributed, read by element in their blocks",
          "[partition][grid][distributed]") {
  // Element reads of a container created distributed look the element up in the block
  // that holds it: here column blocks (B) and 2-D tiles (C), first used by a grid call.
  Session session;
  starpu_codelet cl = tile_codelet();
  Matrix<float> a = numbered(9, 6, 6, 3);
  Matrix<float> b(6, 8, peppher::distributed), c(9, 8, peppher::distributed);
  multiply(cl, a, b, c, 3);  // B's column blocks start zero-filled: C = A * 0
  CHECK(b.is_distributed());
  CHECK(c.is_distributed());
  bool zeros = true;
  for (std::size_t p = 0; p < b.rows(); ++p)
    for (std::size_t j = 0; j < b.cols(); ++j) zeros = zeros && b(p, j) == 0.0f;
  for (std::size_t i = 0; i < c.rows(); ++i)
    for (std::size_t j = 0; j < c.cols(); ++j) zeros = zeros && c(i, j) == 0.0f;
  CHECK(zeros);
  CHECK(b.is_distributed());  // element reads only
  CHECK(b.to_std() == std::vector<float>(6 * 8, 0.0f));
  CHECK_FALSE(b.is_distributed());
}

TEST_CASE("grid: row and column blocks must match the 2-D grid", "[partition][grid]") {
  Session session;
  starpu_codelet cl = tile_codelet();
  Matrix<float> a = numbered(8, 5, 5, 0), b = numbered(5, 6, 6, 0), c(8, 6);
  {
    peppher::PartitionedCall call(&cl, "tile");
    call.split_rows(0, "A", a, 3);   // 3 row blocks
    call.split_cols(1, "B", b, 2);   // 3 column blocks
    call.split_2d(2, "C", c, 4, 2);  // a 2 x 3 grid
    CHECK_THROWS_WITH(call.blocks(),
                      Catch::Contains("tile: 'A' splits into 3 row blocks but 'C' into 2 x 3 "
                                      "blocks; the row blocks must match the grid's rows"));
  }
  {
    peppher::PartitionedCall call(&cl, "tile");
    call.split_rows(0, "A", a, 4);
    call.split_cols(1, "B", b, 4);  // 2 column blocks
    call.split_2d(2, "C", c, 4, 2);
    CHECK_THROWS_WITH(call.submit(),
                      Catch::Contains("'B' splits into 2 column blocks but 'C' into 2 x 3 "
                                      "blocks; the column blocks must match the grid's columns"));
  }
  {
    peppher::PartitionedCall call(&cl, "tile");
    call.split_rows(0, "A", a, 4);
    call.split_cols(1, "B", b, 2);
    CHECK_THROWS_WITH(call.submit(), Catch::Contains("'A' is split in row blocks of the call's "
                                                     "2-D grid, but no operand is split in 2-D"));
  }
  {
    peppher::PartitionedCall call(&cl, "tile");
    call.split_2d(2, "C", c, 4, 2);  // 2 x 3
    Matrix<float> d(6, 8);
    CHECK_THROWS_WITH(call.split_2d(1, "D", d, 2, 4),  // 3 x 2: as many blocks, another grid
                      Catch::Contains("'D' splits into 3 x 2 blocks but 'C' into 2 x 3"));
  }
  // Nothing was submitted, nothing was left partitioned: the containers are usable.
  multiply(cl, a, b, c, 4);
  CHECK(wrong_elements(a, b, c) == 0);
}
