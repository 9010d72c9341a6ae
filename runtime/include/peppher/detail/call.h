// The call-operand core: the one place where a component call's operands become StarPU
// handles and the call becomes tasks. TaskBuilder (task.h) and PartitionedCall
// (partitioned_call.h) are thin typed front ends over it; the code is in runtime/src/call/.
//
// A call collects its operands first (add_*: what each buffer is, nothing registered with
// StarPU for containers and split raw memory yet), then submit() resolves them under the
// containers' locks (registration, partition plans), builds one task per block and submits
// it, and finally releases raw memory (waits for the tasks, brings the data home; what was
// registered for the call only is gathered and unregistered). Extensions have one place each:
//  - a new kind of operand: an OperandKind, an add_* function, resolve() and release();
//  - how a task is submitted (tracing, MPI): submit_task();
//  - what is checked about a raw operand (lengths): raw_extent();
//  - what raw memory waits for before it becomes an operand (a container it lies in, whose
//    tasks StarPU does not order with another handle): raw_memory().
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "peppher/detail/small_vector.h"
#include "peppher/detail/storage.h"
#include "peppher/reduction.h"

namespace peppher {

class AutoSplit;

namespace detail {

struct TransferCosts;
struct WorkingSet;

/// @brief Throws peppher::Error unless the runtime is running (a component call before
///        PEPPHER_INITIALIZE() or after PEPPHER_SHUTDOWN()), naming @p iface.
void require_running(const char* iface);

/// @brief Sizes of @p n elements (or rows) split into @p nparts blocks by block_range().
std::vector<std::size_t> even_sizes(std::size_t n, std::size_t nparts);

/// @brief What one buffer of a call is, hence how submit() gets its handle(s) and what the
///        end of the call does with them.
enum class OperandKind : std::uint8_t {
  Container,        ///< a container's own handle, whole: kept registered by the container
  ContainerSplit,   ///< a container partitioned by `spec`: blocks of its own handle
  Raw,              ///< raw memory registered for this call (vector, matrix or variable)
  RawCached,        ///< a raw vector whose registration the registration cache keeps across
                    ///< calls (raw_cache.h): given back, not unregistered, at the end
  RawSplit,         ///< raw memory split into blocks by a partition plan, at submit: the
                    ///< registration cache's (raw_cache.h, kept across calls), or
                    ///< registered for this call (`cached` unset)
  ContainerReduce,  ///< a Scalar, Vector or Matrix reduced into (FORMAT.md `reduction`):
                    ///< block b's task gets partial b (`blocks`, a private copy of the
                    ///< whole), which the call folds into the container after
};

/// @brief Which block of a split operand the task of block b gets: block b, or, for a
///        Matrix split in one dimension of the call's p x q grid of 2-D blocks (FORMAT.md
///        `partition="a,*"` / `"*,b"`), the row block b / q or the column block b % q.
enum class GridAxis : std::uint8_t {
  Block,  ///< block b (every split but the two below)
  Rows,   ///< row block b / q: the tasks of row i of the grid share row block i
  Cols,   ///< column block b % q: the tasks of column j share column block j
};

/// @brief One buffer of a call (a codelet buffer index and what goes there).
struct Operand {
  int index = 0;  ///< codelet buffer index
  OperandKind kind = OperandKind::Container;
  const char* name = "";                  ///< parameter name, for messages ("" when not given)
  Storage* container = nullptr;           ///< Container / ContainerSplit
  PartitionSpec spec;                     ///< ContainerSplit: the split asked of the container
  starpu_data_handle_t handle = nullptr;  ///< the whole data once resolved / registered
  SmallVector<starpu_data_handle_t, 2> blocks;  ///< split kinds: one handle per block
  SmallVector<std::size_t, 2> sizes;            ///< split kinds: elements (rows) per block
  SmallVector<std::size_t, 2> offsets;          ///< split kinds: first element (row) per block
  std::size_t halo = 0;                         ///< ContainerSplit: halo rows (elements), or 0
  int halo_index = -1;  ///< halo: the buffer of the halo before a block (after: + 1)
  /// halo: per block, its first / last `halo` rows (elements) as separate small data, which
  /// the neighbouring blocks' tasks read (null at the ends: no neighbour reads them).
  SmallVector<starpu_data_handle_t, 2> halo_first, halo_last;
  /// `?` split: the call's split is chosen once every operand is known (Call::settle()).
  bool auto_split = false;
  std::size_t extent = 0;           ///< `?`, RawSplit: elements (rows) split
  const void* raw = nullptr;        ///< RawSplit: the array, split when the call is resolved
  std::size_t row_width = 0;        ///< raw memory in row blocks: elements per row (0: a vector)
  std::size_t elem_size = 0;        ///< RawSplit: bytes per element
  bool cached = false;              ///< RawSplit: the registration cache's, given back at the end
  GridAxis axis = GridAxis::Block;  ///< which of its blocks a task gets
  std::size_t grid_cols = 0;        ///< Rows/Cols: q, the grid's columns (set when settled)
  ReductionOps reduction;           ///< ContainerReduce: the operator

  bool is_split() const noexcept {
    return kind == OperandKind::ContainerSplit || kind == OperandKind::RawSplit;
  }
  /// @brief The index, in blocks/sizes/offsets, of the block the task of block @p b gets.
  std::size_t block_of(std::size_t b) const noexcept {
    if (axis == GridAxis::Rows) return b / grid_cols;
    if (axis == GridAxis::Cols) return b % grid_cols;
    return b;
  }
  /// @brief The handle the task of block @p b gets.
  starpu_data_handle_t handle_of_block(std::size_t b) const {
    return is_split() || kind == OperandKind::ContainerReduce ? blocks[block_of(b)] : handle;
  }
};

/// @brief The operands of one call: the first STARPU_NMAXBUFS inside the Call object, more
///        (a task with dyn_handles) in a heap block. A heap block for them (about 1.4 KB for
///        three operands) was, unlike the call's smaller allocations, beyond glibc's
///        per-thread cache: every call went through the allocator's locked path (apps/ode's
///        calling thread: 5 M instructions in 6,600 calls).
class OperandList {
 public:
  OperandList() = default;
  ~OperandList() {
    if (heap_.empty())
      for (Operand& op : *this) op.~Operand();
  }
  OperandList(const OperandList&) = delete;
  OperandList& operator=(const OperandList&) = delete;

  /// @brief A new operand at the end. References to earlier operands do not survive it.
  Operand& emplace_back() {
    if (size_ < kInline) {
      Operand* op = new (raw_ + size_ * sizeof(Operand)) Operand();
      ++size_;
      return *op;
    }
    if (size_ == kInline) {  // the inline operands move to the heap block
      heap_.reserve(2 * kInline);
      Operand* inline_ops = std::launder(reinterpret_cast<Operand*>(raw_));
      for (std::size_t i = 0; i < kInline; ++i) {
        heap_.push_back(std::move(inline_ops[i]));
        inline_ops[i].~Operand();
      }
    }
    ++size_;
    return heap_.emplace_back();
  }
  std::size_t size() const noexcept { return size_; }
  Operand& back() noexcept { return data()[size_ - 1]; }
  const Operand& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("OperandList::at");
    return data()[i];
  }
  Operand* begin() noexcept { return data(); }
  Operand* end() noexcept { return data() + size_; }
  const Operand* begin() const noexcept { return data(); }
  const Operand* end() const noexcept { return data() + size_; }

 private:
  static constexpr std::size_t kInline = STARPU_NMAXBUFS;
  Operand* data() noexcept {
    return heap_.empty() ? std::launder(reinterpret_cast<Operand*>(raw_)) : heap_.data();
  }
  const Operand* data() const noexcept {
    return heap_.empty() ? std::launder(reinterpret_cast<const Operand*>(raw_)) : heap_.data();
  }
  alignas(Operand) unsigned char raw_[kInline * sizeof(Operand)];
  std::vector<Operand> heap_;  // all operands once there are more than kInline
  std::size_t size_ = 0;
};

/// @brief One component call: its codelet, operands, per-block by-value arguments, and the
///        tasks it submits (one per block; one block when nothing is split).
/// @attention One object per call, used by one thread; objects of concurrent calls share
///            nothing but the containers they name, which submit() locks.
class Call {
 public:
  /// @brief Starts a call of @p codelet for interface @p iface (used in messages); throws
  ///        peppher::Error when the runtime is not running.
  Call(starpu_codelet* codelet, const char* iface);
  /// @brief Frees the arguments of tasks never submitted and releases what was registered
  ///        for the call (waiting for submitted tasks that use it).
  ~Call();
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // -- operands shared whole by every block's task ----------------------------------------

  /// @brief Buffer @p index is container storage @p s, whole (its handle is taken at submit).
  void add_container(int index, Storage& s);
  /// @brief Buffer @p index is a raw array of @p count elements, a StarPU vector. Its
  ///        registration comes from the registration cache (same pointer and size as an
  ///        earlier call: registered once; the end of the call brings the data home and
  ///        invalidates device copies), else it is registered for this call. An empty array
  ///        travels as one element of scratch owned by the call (StarPU cannot allocate an
  ///        empty buffer on an OpenCL device); variants still see their own count argument (0).
  void add_raw_vector(int index, const void* ptr, std::size_t count, std::size_t elem_size);
  /// @brief Buffer @p index is a raw row-major array of @p count elements, @p row_width per
  ///        row (descRowWidth), registered as a StarPU matrix (empty: one row of scratch).
  void add_raw_matrix(int index, const void* ptr, std::size_t count, std::size_t row_width,
                      std::size_t elem_size);
  /// @brief Buffer @p index is one element at @p ptr (a `T&` parameter), registered for
  ///        this call as a StarPU variable.
  void add_raw_variable(int index, const void* ptr, std::size_t elem_size);

  // -- partitioned operands: every split of a call has the same number of blocks -----------

  /// @brief Sizes of a split of @p n elements (rows) of operand @p name into blocks of at
  ///        most @p block; checks the block count against the call's earlier splits.
  std::vector<std::size_t> fixed_sizes(const char* name, std::size_t n, long long block);
  /// @brief Buffer @p index is container storage @p s (a Vector in elements, a Matrix in
  ///        rows) split with `?` by interface @p a: the split is chosen when the call settles
  ///        (settle()); every `?` operand of a call must have the same extent.
  void add_auto_split(int index, const char* name, Storage& s, AutoSplit& a);
  /// @brief Buffer @p index is a raw array of @p n elements (@p row_width == 0) or of @p n
  ///        rows of @p row_width elements split with `?`; registered when the call settles.
  void add_raw_auto_split(int index, const char* name, const void* ptr, std::size_t n,
                          std::size_t row_width, std::size_t elem_size, AutoSplit& a);
  /// @brief Element counts of the 2-D split of a @p rows x @p cols operand @p name into
  ///        blocks of at most @p block_rows x @p block_cols (row-major block order);
  ///        @p first_rows gets each block's first row, @p row_parts the blocks per column.
  std::vector<std::size_t> sizes_2d(const char* name, std::size_t rows, std::size_t cols,
                                    long long block_rows, long long block_cols,
                                    std::vector<std::size_t>& first_rows, std::size_t& row_parts);
  /// @brief Buffer @p index is Matrix storage @p s split in one dimension of the call's grid
  ///        of 2-D blocks (sizes_2d): along @p axis (Rows: @p extent rows in blocks of at
  ///        most @p block rows, all columns; Cols: @p extent columns in blocks of at most
  ///        @p block columns, all rows). The task of grid block (i, j) gets row block i
  ///        (column block j); settle() checks that there are as many as the grid has rows
  ///        (columns). Registered through add_container_split.
  void add_grid_split(int index, const char* name, Storage& s, GridAxis axis, std::size_t extent,
                      long long block);
  /// @brief Buffer @p index is container storage @p s split as @p spec into blocks of
  ///        @p sizes (from fixed_sizes/sizes_2d); @p offsets: each block's first
  ///        element (row), or empty for consecutive blocks.
  void add_container_split(int index, const char* name, Storage& s, PartitionSpec spec,
                           std::vector<std::size_t> sizes, std::vector<std::size_t> offsets = {});
  /// @brief The split container operand at buffer @p index (add_container_split) has a halo
  ///        of @p halo rows (elements, FORMAT.md `halo`): block k's task also reads the last
  ///        @p halo rows of block k - 1 (buffer @p halo_index) and the first of block k + 1
  ///        (buffer @p halo_index + 1); at the ends, where there is no neighbour, the block
  ///        itself stands in that buffer (detail::matrix_halo tells). Each block's boundary
  ///        is copied into small data of its own by a task on the block's owner, so that
  ///        distributed calls send only halo rows between ranks.
  void set_halo(int index, std::size_t halo, int halo_index);
  /// @brief Buffer @p index is Scalar, Vector or Matrix storage @p s reduced into with @p ops
  ///        (FORMAT.md `reduction`): block b's task accesses a partial of its own, of the
  ///        shape of @p s, whose every element starts at the operator's identity (a CPU task
  ///        writes it first), and CPU tasks on the owner of @p s then fold the partials into
  ///        it element-wise in block order: s = s op p0 op p1 ..., the same bits whatever ran
  ///        where. Partials are data of @p s (Storage::reduction_partials_locked), kept for
  ///        the next call with as many blocks.
  void add_reduction(int index, const char* name, Storage& s, const ReductionOps& ops);
  /// @brief Buffer @p index is a raw array of @p count elements registered for this call and
  ///        split into consecutive blocks of @p sizes elements.
  void add_raw_vector_split(int index, const char* name, const void* ptr, std::size_t count,
                            std::size_t elem_size, std::vector<std::size_t> sizes);
  /// @brief Buffer @p index is a raw row-major array of @p rows x @p row_width elements
  ///        registered as a StarPU matrix and split into blocks of @p sizes rows.
  void add_raw_matrix_split(int index, const char* name, const void* ptr, std::size_t rows,
                            std::size_t row_width, std::size_t elem_size,
                            std::vector<std::size_t> sizes);
  /// @brief Rows of a raw row-major array of @p count elements, @p row_width per row;
  ///        throws peppher::Error naming the interface when they do not divide.
  std::size_t raw_rows(std::size_t count, std::size_t row_width) const;

  // -- blocks and arguments ----------------------------------------------------------------

  /// @brief Chooses the `?` split (once; a no-op without `?` operands): a split one of the
  ///        `?` containers is partitioned with, or was last given by a `?` call, when it is
  ///        valid for this call (same extent; equal blocks, one per worker that can run the
  ///        codelet but none under kMinBlockBytes, or model-sized blocks pinned to such
  ///        workers; blocks no smaller than the halos) and no worse informed than a new one
  ///        (modelled), else a new split (detail::model_split) from the models of every
  ///        interface sharing those containers and the bus model. Also checks that the row
  ///        and column blocks of the call's 2-D grid match it (add_grid_split). Then the
  ///        blocks that fit (docs/PARTITIONING.md): where a task's operands exceed a device's
  ///        memory (starpu_memory_get_total), a 1-D split gets more, smaller blocks that fit,
  ///        and a call that cannot be split so is kept off that device, or throws
  ///        peppher::Error when no other worker can run it. Called by blocks(),
  ///        block_size(), block_offset(), make_args() and submit().
  void settle();
  /// @brief settle()'s choice of a `?` split of @p n elements over @p workers (@p k equal
  ///        blocks unless a model-sized or kept split wins) into auto_split_.
  void choose_auto_split(std::size_t n, std::size_t k, const std::vector<int>& workers,
                         std::size_t halo);
  /// @brief What bringing the operands to each of @p workers costs (the bus model).
  TransferCosts transfer_costs(const std::vector<int>& workers) const;
  /// @brief Number of blocks (tasks): 1 until an operand is split.
  std::size_t blocks() {
    settle();
    return nblocks_ == 0 ? 1 : nblocks_;
  }
  /// @brief Elements (rows; a row or column block of the grid: its rows or columns) of the
  ///        block that task @p b gets of the split operand at buffer @p index.
  std::size_t block_size(std::size_t b, int index);
  /// @brief First element (row; column of a column block) of the block that task @p b gets
  ///        of the split operand at buffer @p index.
  std::size_t block_offset(std::size_t b, int index);
  /// @brief Rows (@p cols false) or columns (true) of the block that task @p b gets of the
  ///        split operand at buffer @p index, as its task sees them (a Vector or raw array:
  ///        its elements by one column): what a variant's constraint reads per block.
  std::size_t block_extent(std::size_t b, int index, bool cols);
  /// @brief For a `?` call in equal blocks because its interface's model knows no block of
  ///        this extent yet, though it can predict one now (a model of functions: prediction
  ///        functions, a trained table; AutoSplit::predictable_now): asks it about an equal
  ///        block and the whole (tasks of stand-in data, with block 0's by-value arguments
  ///        where made, never submitted), and chooses the split again, so that the first call
  ///        runs in model-sized blocks as the later ones do. Returns true when the split
  ///        changed: the blocks' by-value arguments are dropped and must be made again.
  ///        Once per call; submit() calls it when no argument block was made (and no codelet
  ///        set), the generated entry wrapper after making them.
  bool size_from_models();
  /// @brief Runs the call's blocks with @p codelet instead (a variant chosen once the blocks
  ///        are known); blocks pinned to a worker it cannot run on are left to the scheduler.
  void set_codelet(starpu_codelet* codelet);
  /// @brief Block @p b's by-value argument block, or nullptr when none was made yet.
  void* args(std::size_t b) const noexcept;
  /// @brief Makes block @p b's argument block of @p size bytes (malloc'd: the task frees it
  ///        with free(), so it must hold a trivially copyable type), uninitialized.
  void* make_args(std::size_t b, std::size_t size);

  // -- introspection for extensions (tracing, MPI) ------------------------------------------

  starpu_codelet* codelet() const noexcept { return codelet_; }
  const char* iface() const noexcept { return iface_; }
  const OperandList& operands() const noexcept { return ops_; }

  /// @brief Resolves the operands, submits one task per block and releases what was
  ///        registered for the call (which waits for the tasks and copies raw data back).
  ///        With @p synchronous, a call with nothing registered for it also waits for its
  ///        tasks. Throws peppher::Error when a task cannot be submitted (-ENODEV: no worker
  ///        of this run can execute any enabled variant), leaking nothing.
  void submit(bool synchronous);

  /// @brief For an unpartitioned call outside a distributed run: submit() calls
  ///        @p chooser(@p context, task) with the task built (its handles give the data
  ///        footprint, under which history models keep their measurements) and runs the task
  ///        with the codelet it returns (same buffers and modes), e.g. one implementation of
  ///        the codelet while its model learns the others (CalibratingChoice, placement.h).
  ///        A chooser that returns nullptr keeps the task unsubmitted: the caller runs the
  ///        call on its own thread (take_unsubmitted_task()).
  /// @attention @p context must live until submit() returns; @p chooser must not lock the
  ///            call's containers (submit() holds their locks).
  void set_codelet_chooser(starpu_codelet* (*chooser)(void*, starpu_task*), void* context) {
    chooser_ = chooser;
    chooser_context_ = context;
  }
  /// @brief The task that submit() built but did not submit (its chooser returned nullptr),
  ///        or nullptr: the caller owns it from then on (starpu_task_destroy), e.g. to record
  ///        the time of the call it ran itself under the task's data footprint.
  starpu_task* take_unsubmitted_task() noexcept { return std::exchange(unsubmitted_, nullptr); }

 private:
  void check_buffer_index(int index, const char* what) const;
  Operand& add(int index, OperandKind kind, const char* name);
  void check_count(const char* name, const std::vector<std::size_t>& sizes);
  std::size_t count_for(const char* name, std::size_t n, long long block) const;
  void check_grid();
  const Operand& find(int index) const;
  void raw_memory(int index, const void* ptr, std::size_t bytes) const;
  void note_auto_operand(const char* name, std::size_t n, AutoSplit& a);
  void add_raw_split(int index, const char* name, const void* ptr, std::size_t rows,
                     std::size_t row_width, std::size_t elem_size, std::vector<std::size_t> sizes);
  void resolve_raw_split(Operand& op);
  void resolve();
  bool overwrites(const Operand& op) const;
  void submit_halo_copies();
  void submit_reduction_starts();
  void submit_reduction_folds();
  void send_written_blocks_home();
  void submit_internal(starpu_task* task);
  starpu_task* make_task(std::size_t b);
  bool submit_task(starpu_task* task, std::size_t b);
  bool amortise_moves(starpu_task* task);
  void forget_reuse_of_written(bool assessed);
  void remember_equal_block(starpu_task* task);
  void release() noexcept;
  // Blocks that fit (call/fit.cpp, docs/PARTITIONING.md).
  bool exceeds_devices() const;
  std::size_t operand_bytes(const Operand& op, std::size_t k) const;
  std::size_t halo_bytes() const;
  WorkingSet working_set() const;
  std::vector<int> fitting_workers(const std::vector<int>& workers, std::size_t need) const;
  [[noreturn]] void fit_error(const std::vector<int>& workers, std::size_t need) const;
  void restrict_to(const std::vector<int>& allowed, const std::vector<int>& capable);
  void fit_auto_split(std::size_t n, const WorkingSet& ws, const std::vector<int>& workers);
  void fit_to_devices();
  void settle_auto();
  void apply_auto_split();
  bool fits_somewhere(const starpu_codelet* codelet) const;
  void resplit_fixed(std::size_t k);

  starpu_codelet* codelet_;
  const char* iface_;
  starpu_codelet* (*chooser_)(void*, starpu_task*) = nullptr;  // set_codelet_chooser()
  void* chooser_context_ = nullptr;
  OperandList ops_;
  SmallVector<void*, 2> args_;  // per block, until handed to its task
  std::size_t args_size_ = 0;
  std::size_t nblocks_ = 0;       // 0: nothing split yet (one task)
  const char* first_split_ = "";  // the first split operand, for messages (the caller's)
  std::size_t grid_rows_ = 0;     // p x q: the 2-D blocks' grid (0: no 2-D operand yet)
  std::size_t grid_cols_ = 0;
  const char* first_grid_ = "";  // the first 2-D operand, for messages
  bool grid_checked_ = true;     // the row and column blocks match the grid (check_grid)
  AutoSplit* auto_ = nullptr;    // the `?` split's interface, from the first `?` operand
  std::size_t auto_extent_ = 0;
  const char* first_auto_ = "";          // the first `?` operand, for messages
  bool settled_ = false;                 // the `?` split is chosen
  SplitState auto_split_;                // the chosen `?` split
  bool quick_ = false;                   // one block, chosen without asking containers or models
  bool sizing_pending_ = false;          // equal blocks the model could size now (size_from_models)
  bool first_sizing_ = false;            // size_from_models() is choosing: unknown readers are home
  mutable bool reader_assumed_ = false;  // transfer_costs() took an unknown reader as home
  bool codelet_set_ = false;       // set_codelet() chose the blocks' codelet from their extents
  std::vector<int> auto_workers_;  // the workers that can run the codelet (the split's)
  bool submitted_ = false;         // some task was submitted (the distributed layer's raw_written)
  starpu_task* unsubmitted_ = nullptr;  // built, kept back by the chooser (take_unsubmitted_task)
  std::vector<int> workers_;  // per block, from the `?` split (empty: the scheduler places)
  std::vector<std::unique_ptr<unsigned char[]>> scratch_;  // stand-ins for empty arrays
  bool fitted_ = false;  // fit_to_devices() ran (blocks that fit, workers that hold them)
  // The workers whose memory holds the call's tasks, when some that can run the codelet do
  // not (empty: no restriction); unpinned tasks get fit_mask_ as their workerids.
  std::vector<int> fit_allowed_;
  const std::uint32_t* fit_mask_ = nullptr;
  unsigned fit_mask_len_ = 0;
  std::size_t fit_need_ = 0;  // bytes a task needs, for messages
};

}  // namespace detail
}  // namespace peppher
