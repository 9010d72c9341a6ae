// Blocks that fit (docs/PARTITIONING.md): the sizing of a partitioned call's blocks against a
// device's memory, on its own: the working set of a block, the fewest equal blocks that fit,
// and a model-sized split whose too-large blocks are cut into pieces for the same worker.
// End to end, with StarPU's STARPU_LIMIT_OPENCL_MEM on pocl's device: e2e_partition_test.
#include <cstddef>
#include <vector>

#include "call/split_sizing.h"
#include "peppher/partitioned_call.h"
#include "peppher_catch.h"

using peppher::detail::blocks_that_fit;
using peppher::detail::pieces_that_fit;
using peppher::detail::rows_that_fit;
using peppher::detail::SplitState;
using peppher::detail::WorkingSet;

TEST_CASE("blocks that fit: a block's working set counts its blocks, halos and whole operands",
          "[partition]") {
  // y = a * x on 1000 floats each: 8 bytes a row; 40 bytes of halo rows; 100 bytes whole.
  WorkingSet ws{{{1000, 4}, {1000, 4}}, 40, 100};
  CHECK(ws.of_blocks(1) == 8000 + 140);
  CHECK(ws.of_blocks(3) == 334 * 8 + 140);  // the largest of 334, 333, 333
  CHECK(ws.of_rows(10) == 80 + 140);
  CHECK(rows_that_fit(ws, 140) == 0);  // the halos and whole operands leave no room
  CHECK(rows_that_fit(ws, 147) == 0);  // not even one row
  CHECK(rows_that_fit(ws, 148) == 1);
  CHECK(rows_that_fit(ws, 1140) == 125);
}

TEST_CASE("blocks that fit: the fewest equal blocks, never fewer than asked", "[partition]") {
  WorkingSet ws{{{1000, 8}}, 0, 0};
  CHECK(blocks_that_fit(2, 1000, ws, 8000) == 2);    // already fits: kept
  CHECK(blocks_that_fit(1, 1000, ws, 4000) == 2);    // 500 rows of 8 bytes
  CHECK(blocks_that_fit(1, 1000, ws, 3999) == 3);    // 334 rows
  CHECK(blocks_that_fit(2, 1000, ws, 1024) == 8);    // 125 rows each
  CHECK(blocks_that_fit(1, 1000, ws, 8) == 1000);    // one row each
  CHECK(blocks_that_fit(1, 1000, ws, 7) == 0);       // not even one row
  CHECK(blocks_that_fit(1, 100, ws, 79) == 0);       // at most 100 blocks (a halo's limit)
  CHECK(blocks_that_fit(0, 1000, ws, 100000) == 1);  // at least one block
  // Operands of different extents split into the same count: the largest blocks count.
  WorkingSet two{{{1000, 4}, {2000, 4}}, 0, 1000};
  const std::size_t k = blocks_that_fit(1, 1000, two, 4000);
  CHECK(two.of_blocks(k) <= 4000);
  CHECK(two.of_blocks(k - 1) > 4000);
  // The same sizing whatever the count asked first (calls of one split agree).
  for (std::size_t asked = 1; asked <= 4; ++asked)
    CHECK(blocks_that_fit(asked, 1000, ws, 1024) == 8);
}

TEST_CASE("blocks that fit: a pinned block too large for its worker becomes pieces there",
          "[partition]") {
  // Worker 0 (a CPU: no limit) and worker 1 (a device that holds 300 rows).
  const SplitState modelled{{400, 1000}, {0, 1}, true};
  const SplitState fitted =
      pieces_that_fit(modelled, [](int w) { return w == 1 ? std::size_t{300} : 0; });
  CHECK(fitted.modelled);
  CHECK(fitted.sizes == std::vector<std::size_t>{400, 250, 250, 250, 250});
  CHECK(fitted.workers == std::vector<int>{0, 1, 1, 1, 1});
  // Blocks that fit and unpinned splits are left as they are.
  CHECK(pieces_that_fit(SplitState{{200, 300}, {0, 1}, true}, [](int) { return 300; }).sizes ==
        std::vector<std::size_t>{200, 300});
  const SplitState equal{{500, 500}, {}, false};
  CHECK(pieces_that_fit(equal, [](int) { return 10; }).sizes == equal.sizes);
}
