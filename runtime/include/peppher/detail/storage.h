// The type-erased heart of every smart container: memory, the one StarPU handle, the host
// access phase (none / read / write) and the partition plans. Vector, Matrix and Scalar wrap it.
#pragma once

#include <starpu.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace peppher {
class Error;
}

namespace peppher::detail {

enum class SyncPoint : std::uint8_t;  // distributed.h

/// @brief What the host may currently do with the data without asking StarPU.
/// None: a component call may use it (must acquire); Read: acquired STARPU_R;
/// Write: acquired STARPU_RW, or not registered at all (plain memory).
enum class HostPhase : std::uint32_t { None = 0, Read = 1, Write = 2 };

/// @brief Which StarPU data interface the container registers with.
enum class Layout : std::uint32_t { Vector, Matrix, Variable };

/// @brief Shape of the payload, in elements; vectors and variables have ny == 1.
struct Shape {
  Layout layout = Layout::Vector;
  std::size_t elem_size = 1;
  std::size_t nx = 0;  ///< elements per row (vector: element count; variable: 1)
  std::size_t ny = 1;  ///< rows
  std::size_t ld = 0;  ///< elements between the starts of two rows (>= nx)
  /// @brief Number of elements the allocation spans (rows times leading dimension).
  std::size_t span() const noexcept { return nx == 0 || ny == 0 ? 0 : ny * ld; }
};

/// @brief A requested split of the data into blocks, compared to reuse partition plans.
struct PartitionSpec {
  enum class Kind { VectorBlocks, VectorSizes, MatrixRows, MatrixRowSizes, Matrix2d, MatrixCols };
  Kind kind = Kind::VectorBlocks;
  /// VectorBlocks/MatrixRows/MatrixCols: {nparts}; VectorSizes/MatrixRowSizes: the block
  /// sizes; Matrix2d: {row_parts, col_parts}. MatrixCols: column blocks, every row each.
  std::vector<std::size_t> args;
  bool operator==(const PartitionSpec& o) const { return kind == o.kind && args == o.args; }
};

struct PartitionPlan;

/// @brief A 1-D split of a container (elements of a Vector, rows of a Matrix) as a `?` call
///        sees it: block sizes, the worker each block is pinned to, and where it came from.
struct SplitState {
  std::vector<std::size_t> sizes;  ///< elements (rows) per block; empty: no such split
  std::vector<int> workers;        ///< per block, its worker; empty: the scheduler places them
  bool modelled = false;           ///< sized from performance models (not an equal split)
  /// Sized at an interface's first call (Call::size_from_models) with a written operand's
  /// next reader unknown, taken to be the host: kept only while a split sized afresh, with
  /// the readers the calls since have shown, comes out the same.
  bool provisional = false;
};

/// @brief What a container tells a `?` call about its splits (Storage::split_record).
struct SplitRecord {
  SplitState active;     ///< the split it is partitioned with now (1-D only), else empty
  SplitState last_auto;  ///< the last `?` split a call gave it (kept across gathers)
  /// Interfaces whose calls split it with `?` recently (within the last two rounds of `?`
  /// calls on it): the interfaces that share its split.
  std::vector<std::string> sharing;
};

/// @brief One block of a partitioned container whose host copy the host reads alone (an
///        element read that fetched only its block): where that copy is, for later reads.
struct BlockWindow {
  std::size_t row0 = 0, row1 = 1;  ///< rows [row0, row1) of the whole (a vector: row 0)
  std::size_t col0 = 0, col1 = 0;  ///< columns (a vector: elements) [col0, col1)
  std::size_t ld = 0;              ///< elements between two rows of the host copy
  const char* base = nullptr;      ///< the host copy of element (row0, col0)
  starpu_data_handle_t block = nullptr;
  bool held = false;  ///< acquired (STARPU_R) by the host until the host phase ends

  /// @brief The host copy of element @p index (row-major over @p shape's leading
  ///        dimension), or null when the element is not in this block.
  const void* find(std::size_t index, const Shape& shape) const noexcept {
    std::size_t row = 0, col = index;
    if (shape.layout == Layout::Matrix) {
      row = index / shape.ld;
      col = index % shape.ld;
    }
    if (row < row0 || row >= row1 || col < col0 || col >= col1) return nullptr;
    return base + ((row - row0) * ld + (col - col0)) * shape.elem_size;
  }
};

/// @brief What calls reading a container's data would have saved, per memory node, had the
///        data been there already (docs/SELECTION.md, "Data that calls keep reading"):
///        microseconds, since the last move there or the last call that would not gain there.
struct ReuseCredit {
  static constexpr int kNodes = STARPU_MAXNODES < 32 ? STARPU_MAXNODES : 32;
  float us[kNodes] = {};
};

/// @brief Owns (or, for a view, borrows) the payload and its StarPU registration.
/// @attention Like std::vector: any number of threads may read one storage at the same time
///            (ensure_read, read_element, handle_for_task / partition for calls that only read
///            it, clone), which the lock around registration, host phases and partitions
///            makes safe (read_element's fast paths take no lock: the phase, or the window of
///            the block last fetched, which stays allocated until a write); a write
///            (ensure_write, reshape, move, destruction, a call writing it) needs exclusive
///            use, and so does a call on a storage still distributed that materialises it (a
///            whole-data call or another split: its blocks are dropped).
class Storage {
 public:
  /// @brief Empty owning storage (no memory, never registered).
  Storage() noexcept;
  /// @brief Owning storage of the given shape; memory is zero-filled, pinned with
  ///        starpu_malloc when the runtime is running.
  explicit Storage(const Shape& shape);
  /// @brief Marks a constructor whose caller writes every element itself.
  struct Uninitialized {};
  /// @brief Owning storage of the given shape, not zero-filled: the container constructor
  ///        that asks for it writes every element (a copy or a fill), so memory is written
  ///        once, not twice (it matters for large containers built from data).
  Storage(const Shape& shape, Uninitialized);
  /// @brief Marks a storage created distributed (e.g. `Vector(n, peppher::distributed)`).
  struct Deferred {};
  /// @brief Storage of the given shape created distributed: no host memory. Its first
  ///        partitioned call registers each block as data of its own (home -1) that StarPU
  ///        allocates, zero-filled by a small task, on the rank (with StarPU-MPI) and the
  ///        memory node where the block's tasks run; element reads fetch the block holding
  ///        the element; any other use materialises the whole on the host of every rank
  ///        (materialise_locked), after which it is an ordinary storage.
  Storage(const Shape& shape, Deferred);
  /// @brief Marks a non-owning storage (a container's view inside a variant).
  struct ViewOf {};
  /// @brief Non-owning storage over @p ptr: no coherence work, never registers, never frees.
  ///        Built in place by the containers' view(): a variant makes one per operand per
  ///        task, on the worker.
  Storage(ViewOf, void* ptr, const Shape& shape) noexcept;
  /// @brief Marks a storage over memory the program made: a container in every way (registered
  ///        in place at its first call, the data brought home by unregistration), except that
  ///        the runtime never allocates or frees that memory.
  struct External {};
  /// @brief Storage over the program's memory at @p ptr (no copy). @p keeper owns it (a
  ///        std::vector a container took over) and is released with the storage; null: the
  ///        program's own array, which must outlive the storage ("borrowed": it cannot be
  ///        resized, since the program expects its results there).
  Storage(External, void* ptr, const Shape& shape, std::shared_ptr<void> keeper);
  /// @brief Storage over @p values' elements where they are (no copy), keeping @p values.
  template <typename T>
  static Storage adopting(std::vector<T>&& values, const Shape& shape) {
    auto kept = std::make_shared<std::vector<T>>(std::move(values));
    T* data = kept->data();
    return Storage(External{}, data, shape, std::move(kept));
  }
  /// @brief Deep copy of @p other; waits for tasks still writing it (host read access).
  Storage clone();

  Storage(Storage&& other) noexcept;
  Storage& operator=(Storage&& other) noexcept;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  /// @brief Waits for pending tasks using the data, unregisters, frees owned memory.
  ~Storage();

  void* data() const noexcept { return ptr_; }
  const Shape& shape() const noexcept { return shape_; }
  bool is_view() const noexcept { return !owning_; }
  /// @brief Over the program's own array (Storage(External, ...) without a keeper).
  bool is_borrowed() const noexcept { return external_ && keeper_ == nullptr; }
  /// @brief Which container this is, counted in the order this process created them
  ///        (from 1; 0: a view or an empty storage): the same on every rank of a
  ///        distributed run whose ranks create the same containers in the same order.
  std::uint64_t serial() const noexcept { return serial_; }
  bool registered() const noexcept;
  bool pinned() const noexcept { return pinned_ || pinned_in_place_; }
  HostPhase phase() const noexcept { return phase_.load(std::memory_order_acquire); }
  /// @brief Created distributed and not materialised yet: no whole copy on the host.
  bool is_distributed() const;
  /// @brief Bytes of main memory the data takes on this process now: the whole, or for a
  ///        distributed storage the blocks StarPU allocated in main memory.
  std::size_t host_bytes() const;

  /// @brief Host read of element @p index (row-major, counting the leading dimension):
  ///        a plain memory access once the data is on the host, or once the block holding
  ///        the element was fetched alone (see read_element_slow()).
  template <typename T>
  const T& read_element(std::size_t index) {
    if (__builtin_expect(phase() != HostPhase::None, 1)) return static_cast<const T*>(ptr_)[index];
    if (const BlockWindow* w = window_.load(std::memory_order_acquire))
      if (const void* p = w->find(index, shape_)) return *static_cast<const T*>(p);
    return *static_cast<const T*>(read_element_slow(index));
  }
  /// @brief Slow path of read_element(): a block already fetched, else, when the data is
  ///        partitioned and either distributed over several ranks or created distributed,
  ///        fetches only the block holding the element (from its owner, on every rank) and
  ///        acquires it (STARPU_R) until the host phase ends; else acquire_read().
  [[gnu::cold, gnu::noinline]] const void* read_element_slow(std::size_t index);

  /// @brief Makes host reads valid: a no-op once the phase began (one inline test).
  void ensure_read() {
    if (__builtin_expect(phase() == HostPhase::None, 0)) acquire_read();
  }
  /// @brief Makes host writes valid: a no-op once the write phase began.
  void ensure_write() {
    if (__builtin_expect(phase() != HostPhase::Write, 0)) acquire_write();
  }
  /// @brief Slow path: starpu_data_acquire(STARPU_R), waiting for pending writers and
  ///        fetching the data once if the host copy is outdated.
  [[gnu::cold, gnu::noinline]] void acquire_read();
  /// @brief Slow path: starpu_data_acquire(STARPU_RW), waiting for every pending task and
  ///        invalidating device copies.
  [[gnu::cold, gnu::noinline]] void acquire_write();

  /// @brief Registers lazily, ends the host phase, returns the handle for a task.
  starpu_data_handle_t handle_for_task();
  /// @brief Like handle_for_task() but returns the block handles of @p spec.
  std::vector<starpu_data_handle_t> partition(const PartitionSpec& spec);

  /// @brief The lock of registration, host phases and partitions. A call holds the locks of
  ///        every storage it uses from taking their handles to submitting its tasks, so no
  ///        other thread's host read or call unpartitions them in between.
  std::unique_lock<std::mutex> lock() const { return std::unique_lock<std::mutex>(mutex_); }
  /// @brief handle_for_task() for a caller holding lock().
  starpu_data_handle_t handle_for_task_locked();
  /// @brief partition() for a caller holding lock(); @p overwritten: the calling call
  ///        writes every block without reading it (a distributed layer then sends no block
  ///        to its owner: Distributed::partitioned).
  std::vector<starpu_data_handle_t> partition_locked(const PartitionSpec& spec,
                                                     bool overwritten = false);

  /// @brief For a caller holding lock(), after partition_locked(@p spec): per block of that
  ///        plan, small data of its own for its first and for its last @p halo rows
  ///        (elements) (null for the first block's first rows and the last block's last
  ///        rows), registered once per plan and halo (StarPU allocates them where used).
  ///        Throws peppher::Error when a block is smaller than @p halo.
  void halo_pieces_locked(const PartitionSpec& spec, std::size_t halo,
                          std::vector<starpu_data_handle_t>& first,
                          std::vector<starpu_data_handle_t>& last);

  /// @brief For a caller holding lock(), after handle_for_task_locked(): @p count partials
  ///        of a reduction into the container (detail::Call::add_reduction), one per block
  ///        of a partitioned call: data of the container's shape (a variable, a vector, a
  ///        packed matrix), registered once per block count until a resize (StarPU allocates
  ///        them where used); distributed, partial k lives where block k of @p count lives.
  std::vector<starpu_data_handle_t> reduction_partials_locked(std::size_t count);

  /// @brief The container's current and last `?` splits and the interfaces sharing them.
  SplitRecord split_record() const;
  /// @brief Whether a `?` call may ignore split_record(): the container is not partitioned
  ///        now and no `?` call gave it a model-sized split.
  bool split_free() const;
  /// @brief For a caller holding lock(), after partition_locked(): interface @p iface's `?`
  ///        call split the container as @p split (remembered for the next `?` calls).
  void note_auto_split_locked(const char* iface, const SplitState& split);

  /// @brief Replaces the payload by a fresh zero-filled one of shape @p shape keeping the
  ///        first min(old, new) bytes; a registered container is unregistered first (this
  ///        waits for tasks still reading it). Throws peppher::Error when the last use was a
  ///        component call (no host access since): tasks may still be using the data.
  void reshape(const Shape& shape);

  /// @brief Called by shutdown(): unregisters (data comes home) and moves the payload to
  ///        plain memory, so the container keeps working without the runtime.
  void detach();

  /// @brief Where the data will be valid once the tasks submitted so far have run, as the
  ///        runtime predicts it for placement-aware dispatch (placement.h): bit n for memory
  ///        node n; 0 when it cannot tell (a task StarPU places wrote it: ask StarPU).
  std::uint32_t placement() const noexcept { return placement_.load(std::memory_order_relaxed); }
  /// @brief For a caller holding lock(): a task accessing the data with @p mode was
  ///        submitted to run on memory node @p node (-1: StarPU chooses the worker).
  void note_task_locked(starpu_data_access_mode mode, int node) noexcept;
  /// @brief The memory node where the data was last read (by a task whose node was known,
  ///        or by the host), or -1: where its next reader is likely to be (a loop's steady
  ///        state), which placement-aware dispatch charges for sending data written there.
  int last_reader() const noexcept { return last_reader_.load(std::memory_order_relaxed); }
  /// @brief For a caller holding lock(): the savings credited to the data per memory node
  ///        (select/reuse_moves.h), made empty when first asked; a host write empties them.
  ReuseCredit& reuse_credit_locked();
  /// @brief For a caller holding lock(): no savings credited any more (data written where
  ///        the calls that read it would not have moved it).
  void forget_reuse_locked() noexcept {
    if (reuse_ != nullptr) *reuse_ = ReuseCredit{};
  }
  /// @brief The handle, or null when the data is not registered (it is at home).
  starpu_data_handle_t registered_handle() const;
  /// @brief registered_handle() for a caller holding lock() (the whole, also while it is
  ///        partitioned: its interface still describes all of the data).
  starpu_data_handle_t registered_handle_locked() const noexcept { return handle_; }

 private:
  void check_task_use(const char* what) const;
  void acquire_read_locked();
  const void* fetch_block_locked(std::size_t index);
  void release_windows_locked(bool forget) noexcept;
  void materialise_locked();
  void plan_distributed_locked(const PartitionSpec& spec);
  void drop_independent_locked() noexcept;
  void end_host_phase() noexcept;
  void release() noexcept;
  void unpartition_active(bool gather = true) noexcept;
  void drop_registration(bool gather = true) noexcept;
  std::vector<starpu_data_handle_t> all_blocks() const;
  void register_handle();
  void free_memory() noexcept;
  void unpin_in_place() noexcept;
  void created();
  void synchronise(SyncPoint what, std::size_t block = 0) const;
  void abandon() noexcept;

  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  Shape shape_{};
  std::atomic<HostPhase> phase_{HostPhase::Write};  // read without the lock (fast paths)
  mutable std::mutex mutex_;                        // not moved: each storage has its own
  bool owning_ = true;
  bool pinned_ = false;           // allocated with starpu_malloc (pinned)
  bool pinned_in_place_ = false;  // allocated before init(), pinned at registration
  bool external_ = false;         // the program's memory (Storage(External, ...)): never freed
  std::shared_ptr<void> keeper_;  // what owns external memory, if anything
  bool tracked_ = false;
  starpu_data_handle_t handle_ = nullptr;
  std::atomic<std::uint32_t> placement_{1u << STARPU_MAIN_RAM};  // see placement()
  std::atomic<int> last_reader_{-1};                             // see last_reader()
  std::unique_ptr<ReuseCredit> reuse_;  // see reuse_credit_locked(); null: none credited yet
  std::vector<std::unique_ptr<PartitionPlan>> plans_;
  int active_plan_ = -1;
  bool distributed_ = false;  // created distributed, not materialised (see is_distributed())
  // Blocks the host reads alone (read_element_slow); the last one found, for the fast path.
  std::vector<std::unique_ptr<BlockWindow>> windows_;
  std::atomic<const BlockWindow*> window_{nullptr};
  std::vector<std::vector<starpu_data_handle_t>> partials_;  // per block count (Scalar)
  // `?` calls: the last split they gave the container, and per interface the number of the
  // last of its `?` calls on it (out of auto_calls_).
  SplitState last_auto_;
  std::vector<std::pair<std::string, std::uint64_t>> auto_users_;
  std::uint64_t auto_calls_ = 0;
  std::uint64_t serial_ = 0;  // see serial()
};

/// @brief Registry of storages that must be detached at shutdown (data/container_registry.cpp).
void track(Storage* storage);
void untrack(Storage* storage) noexcept;
void retrack(Storage* from, Storage* to) noexcept;
/// @brief Whether @p storage is in the registry (for tests).
bool is_tracked(const Storage* storage) noexcept;

/// StarPU 1.3 has a list filter for vectors only: its matrix twin, consecutive row blocks of
/// the sizes in filter_arg_ptr (uint32_t[nchildren]), laid out as
/// starpu_matrix_filter_vertical_block lays out its children.
void matrix_filter_row_list(void* father, void* child, starpu_data_filter* f, unsigned id,
                            unsigned nchildren);

}  // namespace peppher::detail
