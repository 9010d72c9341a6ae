// What generated entry wrappers use when a call is partitioned (FORMAT.md `partition`): the
// call's split into blocks, one task per block sharing the unpartitioned operands
// (PartitionedCall, a typed front end of the call core detail::Call), and the `?` split
// sized from the interface's performance model (AutoSplit, CHPS-style). The code is in
// runtime/src/call/ and runtime/src/select/auto_split*.cpp.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "peppher/detail/call.h"
#include "peppher/error.h"
#include "peppher/matrix.h"
#include "peppher/partition.h"
#include "peppher/reduction.h"
#include "peppher/scalar.h"
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
///        the model predicts every worker's time for an equal block (a StarPU history,
///        filled by those equal blocks; a model of functions, prediction functions or a
///        trained table, from the first equal split's task on), the blocks are sized in
///        proportion to each worker's speed so that all finish at about the same time, and
///        block b is pinned to worker b.
///        Calls on containers agree on one split: a container keeps the split a `?` call gave
///        it (detail::Storage::split_record), the next `?` call on it reuses it when valid,
///        and a new split is sized from the summed predictions of every interface sharing
///        the containers (detail::model_split); see runtime/README.md, "`?` splits".
/// @attention Thread-safe. Only the first implementation of each backend is consulted.
///            Registered under its interface name (auto_split_of) from construction to
///            destruction.
class AutoSplit {
 public:
  explicit AutoSplit(const char* iface);
  ~AutoSplit();
  AutoSplit(const AutoSplit&) = delete;
  AutoSplit& operator=(const AutoSplit&) = delete;

  /// @brief A call of this interface splits @p n over @p workers with `?`; @p model is its
  ///        codelet's performance model (nullptr: none, the split never uses it).
  void seen(std::size_t n, const std::vector<int>& workers, starpu_perfmodel* model);
  /// @brief Called with @p task, the first block's task of an equal split of @p n into
  ///        @p blocks blocks over @p workers, before it is submitted: a model of functions
  ///        (STARPU_PER_ARCH, STARPU_COMMON: prediction functions, a trained table; also what
  ///        a simulated run has, where no kernel runs to be measured) predicts each worker's
  ///        time for it now; a measured one (history, regressions) is asked at the task's
  ///        footprint once such blocks ran. @p whole, when not nullptr, is the same task on
  ///        the whole of @p n (the `?` operands' unpartitioned handles): a model of functions
  ///        predicts it too, which tells a block's fixed cost (a task's) from its cost per
  ///        element; the time per element is the block's time over its size otherwise.
  void remember(std::size_t n, const std::vector<int>& workers, starpu_perfmodel* model,
                starpu_task* task, std::size_t blocks, starpu_task* whole = nullptr);
  /// @brief Whether @p model is a model of functions (which predicts a block before any ran)
  ///        that knows no equal block of @p n over @p workers yet: the call may ask it about
  ///        one before choosing its split (detail::Call::size_from_models), so that even
  ///        the first call is model-sized.
  bool predictable_now(std::size_t n, const std::vector<int>& workers,
                       const starpu_perfmodel* model);
  /// @brief What the model tells of an equal block of @p n split over @p workers.
  enum class Prediction {
    None,     ///< no model, or no call split @p n over these workers
    Pending,  ///< no equal split ran yet, or some worker's time is not calibrated yet
    Known,    ///< @p times holds each worker's predicted time per element (microseconds),
              ///< @p fixed its time per block (0 where only one size was predicted)
  };
  Prediction predict(std::size_t n, const std::vector<int>& workers, std::vector<double>& times,
                     std::vector<double>& fixed);
  /// @brief A call of this interface split @p n elements as @p split; a modelled one is kept
  ///        (modelled_split, and reused by calls whose `?` operands are all raw pointers).
  void used(std::size_t n, const Split& split, bool modelled);
  /// @brief The last model-sized split a call of this interface used for @p n elements
  ///        (empty sizes while the calls are still split equally).
  Split modelled_split(std::size_t n);

  const char* iface() const noexcept { return iface_; }

 private:
  // Per element count n, what the last calls of that n learnt (select/auto_split.cpp), with
  // its lock: out of line, so that the sources including this header parse neither <map>
  // nor <mutex>.
  struct State;

  const char* iface_;
  std::unique_ptr<State> state_;
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
  /// @brief Buffer @p index is Matrix @p m in row blocks of at most @p rows rows (all
  ///        columns, `partition="a,*"`): the task of the grid's 2-D block (i, j) (split_2d
  ///        of another operand) gets row block i; there must be as many row blocks as the
  ///        grid has rows (checked when the call settles).
  template <typename T>
  void split_rows(int index, const char* name, const Matrix<T>& m, long long rows) {
    add_grid_split(index, name, m.storage(), detail::GridAxis::Rows, m.rows(), rows);
  }
  /// @brief Buffer @p index is Matrix @p m in column blocks of at most @p cols columns (all
  ///        rows, `partition="*,b"`): the task of the grid's block (i, j) gets column block
  ///        j; as many column blocks as the grid has columns.
  template <typename T>
  void split_cols(int index, const char* name, const Matrix<T>& m, long long cols) {
    add_grid_split(index, name, m.storage(), detail::GridAxis::Cols, m.cols(), cols);
  }
  /// @brief `?` on a Vector: the split chosen for this call (see AutoSplit), decided once
  ///        every operand is known (at the first blocks(), block_size(), args() or submit()).
  template <typename T>
  void split_auto(int index, const char* name, const Vector<T>& v, AutoSplit& a) {
    add_auto_split(index, name, v.storage(), a);
  }
  /// @brief `?` on a Matrix: row blocks, chosen as for a Vector.
  template <typename T>
  void split_auto(int index, const char* name, const Matrix<T>& m, AutoSplit& a) {
    add_auto_split(index, name, m.storage(), a);
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
    add_raw_auto_split(index, name, ptr, count, 0, elem_size, a);
  }
  /// @brief `?` on a raw row-major array: row blocks as @p a chooses.
  void split_raw_rows_auto(int index, const char* name, const void* ptr, std::size_t count,
                           std::size_t row_width, std::size_t elem_size, AutoSplit& a) {
    const std::size_t rows = raw_rows(count, row_width);
    add_raw_auto_split(index, name, ptr, rows, row_width, elem_size, a);
  }

  /// @brief Buffer @p index is a container shared whole by every block's task.
  template <typename Container>
  void use(int index, const Container& c) {
    add_container(index, c.storage());
  }
  /// @brief Buffer @p index is Scalar @p s reduced into with @p op (FORMAT.md `reduction`):
  ///        each block's task gets a partial of its own starting at the operator's identity,
  ///        folded into @p s in block order once the blocks ran (detail::Call::add_reduction).
  template <typename T>
  void reduce(int index, const char* name, Scalar<T>& s, Reduction op) {
    add_reduction(index, name, s.storage(), detail::reduction_ops<T>(op));
  }
  /// @brief Buffer @p index is Vector @p v reduced into element-wise with @p op: each block's
  ///        task gets a private copy of the whole Vector, every element starting at the
  ///        identity, and the copies are folded into @p v in block order.
  template <typename T>
  void reduce(int index, const char* name, Vector<T>& v, Reduction op) {
    add_reduction(index, name, v.storage(), detail::reduction_ops<T>(op));
  }
  /// @brief Buffer @p index is Matrix @p m reduced into element-wise with @p op, as a Vector.
  template <typename T>
  void reduce(int index, const char* name, Matrix<T>& m, Reduction op) {
    add_reduction(index, name, m.storage(), detail::reduction_ops<T>(op));
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
  /// @brief Rows of block @p b of buffer @p index (a Vector or raw array: its elements).
  std::size_t block_rows(std::size_t b, int index) { return block_extent(b, index, false); }
  /// @brief Columns of block @p b of buffer @p index (a Vector or raw array: 1).
  std::size_t block_cols(std::size_t b, int index) { return block_extent(b, index, true); }
  /// @brief A first `?` call of a model of functions sized from it (Call::size_from_models):
  ///        true when the blocks changed and their by-value arguments must be made again.
  using Call::size_from_models;
  /// @brief The codelet the blocks run with, chosen once they are known (static dispatch or
  ///        a forced variant whose constraints each block must meet); before submit().
  using Call::set_codelet;

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
};

}  // namespace peppher
