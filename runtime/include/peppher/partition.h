// Block arithmetic shared by the partition hooks and generated code: which elements block
// `id` of `nparts` covers, with the same rule StarPU's block filters use; and the counts of
// containers' partitions and gathers (partition_counts).
#pragma once

#include <cstddef>
#include <cstdint>

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

/// @brief How often containers, and raw arrays of partitioned calls, were split into blocks
///        and gathered back since the program started (every container, every thread).
struct PartitionCounts {
  /// Partitions submitted: a container's whole data handed to a split's blocks.
  std::uint64_t partitions = 0;
  /// Gathers (unpartitions): a container's blocks brought back into the whole data, for a
  /// host access, a call using it whole, a call splitting it differently, or shutdown.
  std::uint64_t gathers = 0;
  /// The same for raw-pointer operands split by calls (every array, every thread): one
  /// per split array per call (a call returns with its raw arrays whole, at home).
  std::uint64_t raw_partitions = 0;
  /// Gathers of raw arrays: at the end of each call that split one (its last user when
  /// calls on other threads share the split).
  std::uint64_t raw_gathers = 0;
};

/// @brief The counts so far: the difference of two readings tells how many times the calls
///        in between split and gathered containers (e.g. 0 gathers between two partitioned
///        calls that agree on the split).
PartitionCounts partition_counts() noexcept;

}  // namespace peppher
