// Block arithmetic shared by the partition hooks and generated code: which elements block
// `id` of `nparts` covers, with the same rule StarPU's block filters use.
#pragma once

#include <cstddef>

namespace peppher {

/// @brief A block of consecutive elements (or rows): [offset, offset + size).
struct BlockRange {
  std::size_t offset;
  std::size_t size;
};

/// @brief Block @p id of @p n elements split into @p nparts blocks: sizes differ by at most
///        one, the first n % nparts blocks are the larger ones (so the last is smaller when
///        the split is uneven). Used by Vector::partition_blocks and Matrix::partition_rows.
constexpr BlockRange block_range(std::size_t n, std::size_t nparts, std::size_t id) noexcept {
  const std::size_t base = n / nparts;
  const std::size_t extra = n % nparts;
  return {id * base + (id < extra ? id : extra), base + (id < extra ? 1 : 0)};
}

}  // namespace peppher
