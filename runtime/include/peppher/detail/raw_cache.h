// Registrations of raw-pointer operands kept across calls (issue 17): a legacy loop calling
// a component on the same array pays StarPU's registration once, not per call. A raw array
// split into blocks keeps its partition plans too (issue 43: starpu_data_partition_plan, as
// a container's, docs/PARTITIONING.md): each call partitions it by the plan of its blocks
// and gathers it at its end. Each call ends with the data home and device copies
// invalidated (acquire STARPU_RW of the whole), so the caller may change the memory freely
// between calls, free it, or reuse its address.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace peppher::detail {

/// @brief How a raw array is registered: a vector of @p rows elements (@p row_width 0), or
///        a row-major matrix of @p rows rows of @p row_width elements; @p elem_size bytes
///        an element.
struct RawLayout {
  std::size_t rows = 0;
  std::size_t row_width = 0;
  std::size_t elem_size = 0;
  bool operator==(const RawLayout& o) const noexcept {
    return rows == o.rows && row_width == o.row_width && elem_size == o.elem_size;
  }
};

/// @brief The cached StarPU vector handle of @p count elements of @p elem_size bytes at
///        @p ptr, registered on first use (and gathered, when a call left it split); nullptr
///        when it cannot be cached now (another call still uses a registration of that
///        address with another shape, or split): the caller then registers for the call
///        only. Every non-null result is given back with raw_cache_release().
/// @attention Thread-safe. A registration of that address with another shape that no call
///            uses is dropped (the address was freed and reused).
starpu_data_handle_t raw_cache_acquire(const void* ptr, std::size_t count, std::size_t elem_size);

/// @brief Ends a call's use of @p handle (from raw_cache_acquire): waits for the call's
///        task, brings the data home and invalidates device copies.
void raw_cache_release(starpu_data_handle_t handle) noexcept;

/// @brief The cached registration of the raw array at @p ptr (@p layout) split into
///        consecutive blocks of @p sizes rows (elements) each, into @p blocks: shared with
///        a call still using the same split, else partitioned by the plan of these sizes
///        (plans are kept for reuse, the registration too). Returns the whole array's handle, for
///        raw_cache_release_blocks(); nullptr, @p blocks untouched, when it cannot be cached
///        now (another call still uses that address with another layout or split): the
///        caller then registers and splits for the call only (plan_raw_split()).
/// @attention Thread-safe; submits the partition asynchronously, never waits.
starpu_data_handle_t raw_cache_acquire_blocks(const void* ptr, const RawLayout& layout,
                                              const std::vector<std::size_t>& sizes,
                                              std::vector<starpu_data_handle_t>& blocks);

/// @brief Ends a call's use of the split @p whole (from raw_cache_acquire_blocks): waits
///        for the call's tasks on @p blocks, brings the data home and invalidates its
///        device copies. The last call using the split gathers it (the plan stays).
void raw_cache_release_blocks(starpu_data_handle_t whole,
                              const std::vector<starpu_data_handle_t>& blocks) noexcept;

/// @brief For a call run on the calling thread: waits for tasks of other calls still using
///        a cached registration of [@p ptr, @p ptr + @p bytes) (@p write: the call writes).
void raw_cache_wait(const void* ptr, std::size_t bytes, bool write);

/// @brief Drops every cached registration (shutdown(), before StarPU stops).
void raw_cache_clear() noexcept;

// ---- raw splits, cached or for one call --------------------------------------------------

/// @brief Registers @p layout at @p ptr in main memory (a StarPU vector or matrix).
starpu_data_handle_t register_raw(const void* ptr, const RawLayout& layout);

/// @brief Plans the split of @p whole (registered with @p layout) into consecutive blocks of
///        @p sizes rows (elements): one StarPU handle per block, not yet partitioned.
std::vector<starpu_data_handle_t> plan_raw_split(starpu_data_handle_t whole,
                                                 const RawLayout& layout,
                                                 const std::vector<std::size_t>& sizes);

/// @brief Submits the partition of @p whole into @p blocks (asynchronous, counted in
///        partition_counts().raw_partitions).
void partition_raw(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks);

/// @brief Submits the gather of @p blocks into @p whole, at home (asynchronous, counted in
///        partition_counts().raw_gathers).
void gather_raw(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks) noexcept;

/// @brief Ends a split registered for one call (plan_raw_split(), partition_raw()): gathers
///        @p blocks into @p whole after their tasks, brings the whole home (acquire
///        STARPU_RW) and forgets the plan; @p whole stays registered.
void end_raw_split_for_call(starpu_data_handle_t whole,
                            std::vector<starpu_data_handle_t>& blocks) noexcept;

/// @brief Forgets the plan of @p blocks of @p whole (gathered first when partitioned):
///        the blocks are unregistered once their tasks end.
void clean_raw_split(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks,
                     bool partitioned) noexcept;

}  // namespace peppher::detail
