// What the files implementing detail::Storage share (data/storage.cpp, partition_plans.cpp,
// distributed_blocks.cpp, halos.cpp, reduction_partials.cpp, select/container_notes.cpp):
// the partition plan, the memory helpers and the counters of partition_counts().
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "peppher/detail/storage.h"

namespace peppher::detail {

/// One partitioning of a container, planned once and reused while the shape is the same.
struct PartitionPlan {
  PartitionSpec spec;
  std::vector<std::uint32_t> sizes;                    // filter argument, kept alive
  std::vector<starpu_data_handle_t> top;               // children of the root handle
  std::vector<std::vector<starpu_data_handle_t>> sub;  // 2-D: children of each top block
  std::vector<starpu_data_handle_t> leaves;            // what the caller uses
  // Where each leaf lies in the whole: rows [row0, row0 + rows), columns (a vector's
  // elements) [col0, col0 + cols).
  struct Extent {
    std::size_t row0 = 0, rows = 1, col0 = 0, cols = 0;
  };
  std::vector<Extent> extents;
  // The blocks of a container created distributed: each leaf is data of its own (home
  // -1, no parent handle), not a child of the container's handle.
  bool independent = false;
  // Halo pieces per halo width: each leaf's first and last rows (elements) as data of
  // their own (Storage::halo_pieces_locked).
  struct HaloPieces {
    std::size_t halo = 0;
    std::vector<starpu_data_handle_t> first, last;
  };
  std::vector<HaloPieces> halos;
};

/// Alignment of the memory of a container allocated while the runtime is not running.
constexpr std::size_t kAlign = 64;
/// placement(): valid at home only.
constexpr std::uint32_t kHome = 1u << STARPU_MAIN_RAM;

/// @brief @p bytes of memory for a container: pinned (starpu_malloc, @p pinned set) while
///        the runtime runs, else aligned plain memory; null for 0 bytes. Throws bad_alloc.
void* alloc_bytes(std::size_t bytes, bool& pinned);
/// @brief Frees what alloc_bytes() gave.
void free_bytes(void* p, std::size_t bytes, bool pinned) noexcept;
/// @brief @p n as one of StarPU's 32-bit sizes, or a peppher::Error naming @p what.
std::uint32_t to_u32(std::size_t n, const char* what);

/// @brief The block sizes of a 1-D split @p spec of a container of shape @p shape (empty
///        for 2-D).
std::vector<std::size_t> sizes_of(const PartitionSpec& spec, const Shape& shape);
/// @brief Throws peppher::Error unless @p spec can split a container of shape @p shape: the
///        kind fits the container, and every block is non-empty (the sizes of a list add up
///        to it).
void check_spec(const PartitionSpec& spec, const Shape& shape);
/// @brief Where each block of @p spec lies in a container of shape @p shape (the order of
///        the plan's leaves: 2-D blocks row-major, as block_range() and StarPU's block
///        filters cut).
std::vector<PartitionPlan::Extent> extents_of(const PartitionSpec& spec, const Shape& shape);
/// @brief Counts one partition for partition_counts().
void count_partition() noexcept;
/// @brief Counts one partition of a raw array (partition_counts().raw_partitions).
void count_raw_partition() noexcept;
/// @brief Counts one gather of a raw array (partition_counts().raw_gathers).
void count_raw_gather() noexcept;

}  // namespace peppher::detail
