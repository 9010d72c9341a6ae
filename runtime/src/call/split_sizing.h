// The `?` split's sizing and the blocks that fit a device's memory: what the call core
// (call/), AutoSplit (select/auto_split*.cpp) and their tests share. Internal: moved out of
// peppher/partitioned_call.h so that generated wrappers do not parse <functional> for it.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "peppher/partitioned_call.h"

namespace peppher {
namespace detail {

/// @brief The workers of this run that can execute @p cl (by their first implementation of
///        each backend), in worker order.
std::vector<int> capable_workers(const starpu_codelet* cl);

/// @brief Bytes of the `?` operands a block must carry at least while no performance
///        model sizes the split: below this a task and its partition cost about what a
///        memory-bound kernel spends on the data (docs/PARTITIONING.md).
inline constexpr std::size_t kMinBlockBytes = 64 * 1024;
/// @brief Microseconds a block costs beyond its work (task, partition and gather), charged
///        when a model-sized split is weighed against fewer blocks.
inline constexpr double kBlockCostUs = 10.0;

/// @brief Equal blocks of @p n elements (rows) of @p bytes in all, for a call without a
///        model-sized split: one per worker (@p workers of them), but no more than leave
///        each block kMinBlockBytes, and at least one.
std::size_t unmodelled_blocks(std::size_t n, std::size_t bytes, std::size_t workers);

/// @brief What moving a call's data costs on each worker (microseconds), from StarPU's bus
///        model: @p per_element for each element (row) of the `?` operands a block holds,
///        @p fixed for the operands every block's task reads whole. Indexed like the workers.
struct TransferCosts {
  std::vector<double> per_element;
  std::vector<double> fixed;
};

/// @brief The fastest split of @p n elements over some of @p workers, given each worker's
///        kernel time per element @p kernel (microseconds) and @p transfer: the m workers of
///        least cost per element (m = 1 .. all) with blocks sized so that all finish
///        together, each block charged kBlockCostUs when there are several; the m with the
///        least predicted time wins (ties: fewer blocks). Blocks in worker order, each
///        pinned to its worker (modelled); one block when one worker alone is fastest.
SplitState fastest_split(std::size_t n, const std::vector<int>& workers,
                         const std::vector<double>& kernel, const TransferCosts& transfer);

/// @brief A new `?` split of @p n elements over @p workers for a call of @p own that shares
///        its containers with the interfaces named in @p sharing: per worker, the predicted
///        times per element summed over those interfaces whose models know them, plus the
///        call's @p transfer (asked only then), their times per block (AutoSplit::predict)
///        added to the transfer's fixed costs, sized by fastest_split (modelled). @p parts equal
///        unpinned blocks while one of them is still calibrating (Pending) or none knows (so every
///        interface calibrates on the same equal blocks first).
SplitState model_split(AutoSplit& own, const std::vector<std::string>& sharing, std::size_t n,
                       const std::vector<int>& workers,
                       const std::function<TransferCosts()>& transfer, std::size_t parts);

/// @brief What one block's task of a partitioned call holds in a device's memory at once
///        (bytes), docs/PARTITIONING.md "Blocks that fit": its blocks of the 1-D partitioned
///        operands (each of @p extent elements or rows, @p row_bytes each), the halo rows it
///        reads of its neighbours (@p halo), and what every block's task reads whole
///        (@p whole: shared operands, a reduction's private copy).
struct WorkingSet {
  struct Part {
    std::size_t extent = 0;
    std::size_t row_bytes = 0;
  };
  std::vector<Part> split;
  std::size_t halo = 0;
  std::size_t whole = 0;
  /// @brief The largest block's working set when every part is split into @p k equal blocks.
  std::size_t of_blocks(std::size_t k) const noexcept;
  /// @brief The working set of a block of @p rows rows of every part (parts of one extent,
  ///        as in a `?` split).
  std::size_t of_rows(std::size_t rows) const noexcept;
};

/// @brief The most rows a block of every part may have for its working set @p ws to fit in
///        @p capacity bytes (parts of one extent, as in a `?` split); 0 when not even one
///        does (what is read whole, or the halos, leave no room).
std::size_t rows_that_fit(const WorkingSet& ws, std::size_t capacity) noexcept;

/// @brief The fewest equal blocks (block_range()), at least @p k and at most @p most, whose
///        every working set fits in @p capacity bytes; 0 when @p most blocks do not fit.
std::size_t blocks_that_fit(std::size_t k, std::size_t most, const WorkingSet& ws,
                            std::size_t capacity) noexcept;

/// @brief @p split (blocks pinned to workers) with every block larger than
///        @p fitting_rows(its worker) elements (rows) cut into the fewest equal consecutive
///        blocks that fit, each pinned to the same worker (so each worker keeps its share);
///        an unpinned split is returned as it is. @p fitting_rows returns 0 for a worker
///        without a limit.
SplitState pieces_that_fit(const SplitState& split,
                           const std::function<std::size_t(int)>& fitting_rows);

}  // namespace detail
}  // namespace peppher
