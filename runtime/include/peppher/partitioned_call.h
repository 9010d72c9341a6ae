// What generated entry wrappers use when a call is partitioned (FORMAT.md `partition`): the
// call's split into blocks, one task per block sharing the unpartitioned operands
// (PartitionedCall, a typed front end of the call core detail::Call), and the `?` split
// sized from the interface's performance model (AutoSplit, CHPS-style). The code is in
// runtime/src/call.cpp and runtime/src/auto_split.cpp.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "peppher/detail/call.h"
#include "peppher/error.h"
#include "peppher/matrix.h"
#include "peppher/partition.h"
#include "peppher/task.h"
#include "peppher/vector.h"

namespace peppher {

/// @brief Sizes of @p n elements (or rows) split into @p nparts blocks by block_range().
inline std::vector<std::size_t> even_sizes(std::size_t n, std::size_t nparts) {
  return detail::even_sizes(n, nparts);
}

/// @brief A 1-D split: block sizes and, when sized from a performance model, the worker
///        each block is meant for (empty: the scheduler places the blocks).
struct Split {
  std::vector<std::size_t> sizes;
  std::vector<int> workers;
};

/// @brief The `?` / `auto` split of one interface. Without a calibrated performance model
///        the call is split into one equal block per worker that can run the codelet; once
///        the model (StarPU history, filled by those equal blocks) predicts every worker's
///        time for an equal block, the blocks are sized in proportion to each worker's speed
///        so that all finish at about the same time, and block b is pinned to worker b.
///        A model-sized split is kept for that extent (plans are reused across calls).
/// @attention Thread-safe. Only the first implementation of each backend is consulted.
///            Registered under its interface name (auto_split_of) from construction to
///            destruction.
class AutoSplit {
 public:
  explicit AutoSplit(const char* iface);
  ~AutoSplit();
  AutoSplit(const AutoSplit&) = delete;
  AutoSplit& operator=(const AutoSplit&) = delete;

  /// @brief The split of @p n elements for @p codelet on this run's workers.
  Split plan(std::size_t n, starpu_codelet* codelet);
  /// @brief Called with the first block's task of an equal split of @p n: its footprint is
  ///        where the model's predictions for equal blocks are found.
  void remember(std::size_t n, std::uint32_t footprint);
  /// @brief The model-sized split chosen for @p n elements (empty sizes while the calls are
  ///        still split equally).
  Split modelled_split(std::size_t n);

  const char* iface() const noexcept { return iface_; }

 private:
  struct Entry {
    Split split;
    std::uint32_t footprint = 0;
    bool have_footprint = false;
    bool modelled = false;
  };

  const char* iface_;
  std::mutex mutex_;
  std::map<std::size_t, Entry> entries_;
};

/// @brief The model-sized `?` split interface @p iface chose for @p n elements (empty sizes
///        while it still splits equally, has no `?` operand, or its AutoSplit is gone): for
///        tests and benchmarks.
Split auto_split_of(const std::string& iface, std::size_t n);

/// @brief One partitioned call (a front end of detail::Call): every partitioned operand is
///        split into the same number of blocks, operands that are not partitioned are shared
///        whole (read-only), and submit() submits one task per block, asynchronously. Raw
///        pointers are registered for the call (partitioned ones split too); submit() then
///        waits, gathers and unregisters them.
/// @attention One object per call, used by one thread; objects of concurrent calls share
///            nothing but the containers they name (see runtime/README.md, threads).
class PartitionedCall : private detail::Call {
 public:
  PartitionedCall(starpu_codelet* codelet, const char* iface) : Call(codelet, iface) {}

  /// @brief Buffer @p index is Vector @p v in blocks of at most @p block elements.
  template <typename T>
  void split(int index, const char* name, const Vector<T>& v, long long block) {
    std::vector<std::size_t> sizes = fixed_sizes(name, v.size(), block);
    detail::PartitionSpec spec{detail::PartitionSpec::Kind::VectorBlocks, {sizes.size()}};
    add_container_split(index, name, v.storage(), std::move(spec), std::move(sizes));
  }
  /// @brief Buffer @p index is Matrix @p m in blocks of at most @p block rows.
  template <typename T>
  void split(int index, const char* name, const Matrix<T>& m, long long block) {
    std::vector<std::size_t> sizes = fixed_sizes(name, m.rows(), block);
    detail::PartitionSpec spec{detail::PartitionSpec::Kind::MatrixRows, {sizes.size()}};
    add_container_split(index, name, m.storage(), std::move(spec), std::move(sizes));
  }
  /// @brief Buffer @p index is Vector or Matrix @p c in 1-D blocks of at most @p block
  ///        elements (rows), read with a halo of @p halo elements (rows, FORMAT.md `halo`)
  ///        around each block: buffers @p halo_index and @p halo_index + 1 carry the
  ///        neighbours' boundaries (detail::Call::set_halo).
  template <typename Container>
  void split(int index, const char* name, const Container& c, long long block, long long halo,
             int halo_index) {
    split(index, name, c, block);
    set_halo(index, halo_of(name, halo), halo_index);
  }
  /// @brief `?` on a Vector or Matrix, with a halo of @p halo elements (rows).
  template <typename Container>
  void split_auto(int index, const char* name, const Container& c, AutoSplit& a, long long halo,
                  int halo_index) {
    split_auto(index, name, c, a);
    set_halo(index, halo_of(name, halo), halo_index);
  }
  /// @brief Buffer @p index is Matrix @p m in 2-D blocks of at most @p rows x @p cols,
  ///        in row-major block order; a block's size counts elements, its offset is its
  ///        first row.
  template <typename T>
  void split_2d(int index, const char* name, const Matrix<T>& m, long long rows, long long cols) {
    std::vector<std::size_t> first_rows;
    std::size_t row_parts = 0;
    std::vector<std::size_t> sizes =
        sizes_2d(name, m.rows(), m.cols(), rows, cols, first_rows, row_parts);
    detail::PartitionSpec spec{detail::PartitionSpec::Kind::Matrix2d,
                               {row_parts, sizes.size() / row_parts}};
    add_container_split(index, name, m.storage(), std::move(spec), std::move(sizes),
                        std::move(first_rows));
  }
  /// @brief `?` on a Vector: the split @p a chooses for this call.
  template <typename T>
  void split_auto(int index, const char* name, const Vector<T>& v, AutoSplit& a) {
    std::vector<std::size_t> sizes = auto_sizes(name, v.size(), a);
    add_container_split(index, name, v.storage(), vector_spec(v.size(), sizes), sizes);
  }
  /// @brief `?` on a Matrix: row blocks as @p a chooses.
  template <typename T>
  void split_auto(int index, const char* name, const Matrix<T>& m, AutoSplit& a) {
    std::vector<std::size_t> sizes = auto_sizes(name, m.rows(), a);
    add_container_split(index, name, m.storage(), row_spec(m.rows(), sizes), sizes);
  }
  /// @brief Buffer @p index is a raw array of @p count elements, registered for this call
  ///        and split into blocks of at most @p block elements.
  void split_raw(int index, const char* name, const void* ptr, std::size_t count,
                 std::size_t elem_size, long long block) {
    add_raw_vector_split(index, name, ptr, count, elem_size, fixed_sizes(name, count, block));
  }
  /// @brief Buffer @p index is a raw row-major array of @p count elements, @p row_width per
  ///        row (descRowWidth), registered for this call as a StarPU matrix and split into
  ///        blocks of at most @p block rows: each block is its rows, contiguous.
  void split_raw_rows(int index, const char* name, const void* ptr, std::size_t count,
                      std::size_t row_width, std::size_t elem_size, long long block) {
    const std::size_t rows = raw_rows(count, row_width);
    add_raw_matrix_split(index, name, ptr, rows, row_width, elem_size,
                         fixed_sizes(name, rows, block));
  }
  /// @brief `?` on a raw array of @p count elements.
  void split_raw_auto(int index, const char* name, const void* ptr, std::size_t count,
                      std::size_t elem_size, AutoSplit& a) {
    add_raw_vector_split(index, name, ptr, count, elem_size, auto_sizes(name, count, a));
  }
  /// @brief `?` on a raw row-major array: row blocks as @p a chooses.
  void split_raw_rows_auto(int index, const char* name, const void* ptr, std::size_t count,
                           std::size_t row_width, std::size_t elem_size, AutoSplit& a) {
    const std::size_t rows = raw_rows(count, row_width);
    add_raw_matrix_split(index, name, ptr, rows, row_width, elem_size, auto_sizes(name, rows, a));
  }

  /// @brief Buffer @p index is a container shared whole by every block's task.
  template <typename Container>
  void use(int index, const Container& c) {
    add_container(index, c.storage());
  }
  /// @brief Buffer @p index is a raw array shared whole, registered for this call (an empty
  ///        one travels as one element of scratch, as in TaskBuilder).
  void register_vector(int index, const void* ptr, std::size_t count, std::size_t elem_size) {
    add_raw_vector(index, ptr, count, elem_size);
  }
  /// @brief Buffer @p index is a raw row-major array shared whole, as a StarPU matrix.
  void register_matrix(int index, const void* ptr, std::size_t count, std::size_t row_width,
                       std::size_t elem_size) {
    add_raw_matrix(index, ptr, count, row_width, elem_size);
  }
  /// @brief Buffer @p index is one element (a `const T&`-like read operand) shared whole.
  void register_variable(int index, const void* ptr, std::size_t elem_size) {
    add_raw_variable(index, ptr, elem_size);
  }

  /// @brief Number of blocks (tasks) of the call; 1 until the first split.
  using Call::blocks;
  /// @brief Elements (rows for a row-split matrix) of block @p b of buffer @p index.
  using Call::block_size;
  /// @brief First element (row) of block @p b of buffer @p index in the whole operand.
  using Call::block_offset;

  /// @brief Block @p b's by-value argument block, owned by its task once submitted (StarPU
  ///        frees it with free(): Args must be trivially copyable).
  template <typename Args>
  Args& args(std::size_t b) {
    static_assert(std::is_trivially_copyable_v<Args>,
                  "by-value arguments travel in a malloc'd block that StarPU frees with free(): "
                  "their type must be trivially copyable");
    if (void* p = Call::args(b)) return *static_cast<Args*>(p);
    return *new (make_args(b, sizeof(Args))) Args;
  }

  /// @brief Submits one task per block. Raw-pointer operands are then gathered (partitioned
  ///        ones), copied back and unregistered, which waits for the tasks; containers let the
  ///        call return at once. Throws peppher::Error when no worker can run the codelet.
  void submit() { Call::submit(false); }

  /// @brief The call core, for extensions that need its operands (tracing, MPI).
  const detail::Call& call() const noexcept { return *this; }

 private:
  std::size_t halo_of(const char* name, long long halo) const {
    if (halo < 0)
      throw Error(std::string(iface()) + ": the halo of '" + name + "' is " + std::to_string(halo) +
                  "; it must not be negative");
    return static_cast<std::size_t>(halo);
  }
  static bool is_even(std::size_t n, const std::vector<std::size_t>& sizes) {
    return sizes == detail::even_sizes(n, sizes.size());
  }
  static detail::PartitionSpec vector_spec(std::size_t n, const std::vector<std::size_t>& sizes) {
    if (is_even(n, sizes)) return {detail::PartitionSpec::Kind::VectorBlocks, {sizes.size()}};
    return {detail::PartitionSpec::Kind::VectorSizes, sizes};
  }
  static detail::PartitionSpec row_spec(std::size_t n, const std::vector<std::size_t>& sizes) {
    if (is_even(n, sizes)) return {detail::PartitionSpec::Kind::MatrixRows, {sizes.size()}};
    return {detail::PartitionSpec::Kind::MatrixRowSizes, sizes};
  }
};

}  // namespace peppher
