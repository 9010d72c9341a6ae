// Storage: memory (pinned when the runtime is up), lazy StarPU registration, the host
// access phases (one acquisition per phase, paper IV.D) and the asynchronous partition plans.
#include "peppher/detail/storage.h"

#include <atomic>
#include <cassert>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "devices/idle_workers.h"
#include "peppher/detail/checks.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/variant_errors.h"
#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/partition.h"

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

namespace {

constexpr std::size_t kAlign = 64;
constexpr std::uint32_t kHome = 1u << STARPU_MAIN_RAM;  // placement(): valid at home only

// partition_counts(): every container's partitions and gathers.
std::atomic<std::uint64_t> g_partitions{0};
std::atomic<std::uint64_t> g_gathers{0};
// Containers created so far in this process (Storage::serial()).
std::atomic<std::uint64_t> g_serials{0};

// The block sizes of a 1-D split @p spec of a container of shape @p shape (empty for 2-D).
std::vector<std::size_t> sizes_of(const PartitionSpec& spec, const Shape& shape) {
  using Kind = PartitionSpec::Kind;
  switch (spec.kind) {
    case Kind::VectorSizes:
    case Kind::MatrixRowSizes:
      return spec.args;
    case Kind::VectorBlocks:
    case Kind::MatrixRows: {
      const std::size_t n = spec.kind == Kind::MatrixRows ? shape.ny : shape.nx;
      std::vector<std::size_t> sizes;
      for (std::size_t b = 0; b < spec.args.at(0); ++b)
        sizes.push_back(block_range(n, spec.args[0], b).size);
      return sizes;
    }
    case Kind::Matrix2d:
    case Kind::MatrixCols:
      break;
  }
  return {};
}

void* alloc_bytes(std::size_t bytes, bool& pinned) {
  pinned = false;
  if (bytes == 0) return nullptr;
  if (is_running()) {
    void* p = nullptr;
    if (starpu_malloc_flags(&p, bytes, STARPU_MALLOC_PINNED) == 0 && p != nullptr) {
      pinned = true;
      return p;
    }
    throw std::bad_alloc();
  }
  void* p = std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void free_bytes(void* p, std::size_t bytes, bool pinned) noexcept {
  if (p == nullptr) return;
  if (pinned)
    starpu_free_flags(p, bytes, STARPU_MALLOC_PINNED);
  else
    std::free(p);
}

std::uint32_t to_u32(std::size_t n, const char* what) {
  if (n > UINT32_MAX) throw Error(std::string(what) + " does not fit StarPU's 32-bit sizes");
  return static_cast<std::uint32_t>(n);
}

starpu_data_filter make_filter(void (*func)(void*, void*, starpu_data_filter*, unsigned, unsigned),
                               std::size_t nparts, void* arg = nullptr) {
  starpu_data_filter f;
  std::memset(&f, 0, sizeof f);
  f.filter_func = func;
  f.nchildren = static_cast<unsigned>(nparts);
  f.filter_arg_ptr = arg;
  return f;
}

void check_parts(std::size_t nparts, std::size_t n, const char* what) {
  if (nparts == 0 || nparts > n)
    throw Error(std::string(what) + ": cannot split " + std::to_string(n) + " into " +
                std::to_string(nparts) + " non-empty blocks");
}

// Throws peppher::Error unless @p spec can split a container of shape @p shape: the kind
// fits the container, and every block is non-empty (the sizes of a list add up to it).
void check_spec(const PartitionSpec& spec, const Shape& shape) {
  using Kind = PartitionSpec::Kind;
  const bool vector_kind = spec.kind == Kind::VectorBlocks || spec.kind == Kind::VectorSizes;
  if (vector_kind != (shape.layout == Layout::Vector) ||
      !vector_kind != (shape.layout == Layout::Matrix))
    throw Error("partition: kind does not match the container");
  switch (spec.kind) {
    case Kind::VectorBlocks:
      check_parts(spec.args.at(0), shape.nx, "partition_blocks");
      return;
    case Kind::VectorSizes:
    case Kind::MatrixRowSizes: {
      const bool rows = spec.kind == Kind::MatrixRowSizes;
      const std::size_t extent = rows ? shape.ny : shape.nx;
      std::size_t sum = 0;
      for (std::size_t size : spec.args) {
        if (size == 0) throw Error("partition_sizes: a block size is 0");
        sum += size;
      }
      if (spec.args.empty() || sum != extent)
        throw Error(std::string(rows ? "partition_row_sizes" : "partition_sizes") +
                    ": block sizes sum to " + std::to_string(sum) + ", the " +
                    (rows ? "matrix has " : "vector has ") + std::to_string(extent) +
                    (rows ? " rows" : " elements"));
      return;
    }
    case Kind::MatrixCols:
      check_parts(spec.args.at(0), shape.nx, "partition columns");
      return;
    case Kind::MatrixRows:
    case Kind::Matrix2d:
      check_parts(spec.args.at(0), shape.ny, "partition rows");
      if (spec.kind == Kind::Matrix2d) check_parts(spec.args.at(1), shape.nx, "partition columns");
      return;
  }
}

// Where each block of @p spec lies in a container of shape @p shape (the order of the
// plan's leaves: 2-D blocks row-major, as block_range() and StarPU's block filters cut).
std::vector<PartitionPlan::Extent> extents_of(const PartitionSpec& spec, const Shape& shape) {
  std::vector<PartitionPlan::Extent> out;
  if (spec.kind == PartitionSpec::Kind::Matrix2d) {
    for (std::size_t bi = 0; bi < spec.args.at(0); ++bi)
      for (std::size_t bj = 0; bj < spec.args.at(1); ++bj) {
        const BlockRange r = block_range(shape.ny, spec.args[0], bi);
        const BlockRange c = block_range(shape.nx, spec.args[1], bj);
        out.push_back({r.offset, r.size, c.offset, c.size});
      }
    return out;
  }
  if (spec.kind == PartitionSpec::Kind::MatrixCols) {  // column blocks, every row each
    for (std::size_t bj = 0; bj < spec.args.at(0); ++bj) {
      const BlockRange c = block_range(shape.nx, spec.args[0], bj);
      out.push_back({0, shape.ny, c.offset, c.size});
    }
    return out;
  }
  const bool rows = shape.layout == Layout::Matrix;
  std::size_t first = 0;
  for (std::size_t size : sizes_of(spec, shape)) {
    if (rows)
      out.push_back({first, size, 0, shape.nx});
    else
      out.push_back({0, 1, first, size});
    first += size;
  }
  return out;
}

// Where this node's copy of block @p leaf (lying at @p e in a container of @p shape) starts,
// and how many elements apart its rows are (a vector's block is one row).
struct BlockMemory {
  const char* base;
  std::size_t ld;
};
BlockMemory block_memory(starpu_data_handle_t leaf, const Shape& shape,
                         const PartitionPlan::Extent& e) {
  if (shape.layout != Layout::Matrix)
    return {reinterpret_cast<const char*>(starpu_vector_get_local_ptr(leaf)), e.cols};
  return {reinterpret_cast<const char*>(starpu_matrix_get_local_ptr(leaf)),
          starpu_matrix_get_local_ld(leaf)};
}

// A container created distributed gets its blocks from a task on each block's owner that
// fills it with zeros (write-only: StarPU allocates the block there, nothing moves).
void zero_vector(void* buffers[], void*) {
  std::memset(
      reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[0])), 0,
      std::size_t{STARPU_VECTOR_GET_NX(buffers[0])} * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
}

void zero_matrix(void* buffers[], void*) {
  auto* base = reinterpret_cast<char*>(STARPU_MATRIX_GET_PTR(buffers[0]));
  const std::size_t es = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
  const std::size_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
  for (std::size_t r = 0; r < STARPU_MATRIX_GET_NY(buffers[0]); ++r)
    std::memset(base + r * ld * es, 0, std::size_t{STARPU_MATRIX_GET_NX(buffers[0])} * es);
}

starpu_codelet zero_codelet(starpu_cpu_func_t func, const char* name) {
  starpu_codelet c{};
  c.where = STARPU_CPU;
  c.cpu_funcs[0] = func;
  c.nbuffers = 1;
  c.modes[0] = STARPU_W;
  c.name = name;
  return c;
}

}  // namespace

// StarPU 1.3 has a list filter for vectors only: this is its matrix twin, consecutive row
// blocks of the sizes in filter_arg_ptr (uint32_t[nchildren]), as
// starpu_matrix_filter_vertical_block lays out children.
void matrix_filter_row_list(void* father, void* child, starpu_data_filter* f, unsigned id,
                            unsigned) {
  auto* parent = static_cast<starpu_matrix_interface*>(father);
  auto* block = static_cast<starpu_matrix_interface*>(child);
  const auto* sizes = static_cast<const std::uint32_t*>(f->filter_arg_ptr);
  std::size_t first = 0;
  for (unsigned i = 0; i < id; ++i) first += sizes[i];
  const std::size_t offset = first * parent->ld * parent->elemsize;
  block->id = parent->id;
  block->nx = parent->nx;
  block->ny = sizes[id];
  block->elemsize = parent->elemsize;
  block->allocsize = static_cast<std::size_t>(parent->nx) * sizes[id] * parent->elemsize;
  if (parent->dev_handle) {
    if (parent->ptr) block->ptr = parent->ptr + offset;
    block->ld = parent->ld;
    block->dev_handle = parent->dev_handle;
    block->offset = parent->offset + offset;
  }
}

[[noreturn]] void throw_out_of_range(const char* what, std::size_t index, std::size_t size) {
  throw Error(std::string(what) + ": index " + std::to_string(index) + " out of range [0, " +
              std::to_string(size) + ")");
}

std::size_t checked_bytes(const Shape& shape) {
  static const char* const kKinds[] = {"Vector", "Matrix", "Scalar"};
  const char* kind = kKinds[static_cast<std::uint32_t>(shape.layout)];
  const std::string extents = shape.layout == Layout::Matrix
                                  ? std::to_string(shape.ny) + " x " + std::to_string(shape.nx) +
                                        " (leading dimension " + std::to_string(shape.ld) + ")"
                                  : std::to_string(shape.nx) + " elements";
  // StarPU's vector and matrix interfaces hold extents as uint32_t.
  constexpr std::size_t kStarpuMax = std::numeric_limits<std::uint32_t>::max();
  if (shape.nx > kStarpuMax || shape.ny > kStarpuMax || shape.ld > kStarpuMax) {
    throw Error(std::string(kind) + " of " + extents + ": StarPU registers at most " +
                std::to_string(kStarpuMax) + " elements per dimension");
  }
  std::size_t elements = 0, bytes = 0;
  const std::size_t rows = shape.nx == 0 || shape.ny == 0 ? 0 : shape.ny;
  if (__builtin_mul_overflow(rows, shape.ld, &elements) ||
      __builtin_mul_overflow(elements, shape.elem_size, &bytes)) {
    throw Error(std::string(kind) + " of " + extents + " (" + std::to_string(shape.elem_size) +
                "-byte elements): the size in bytes overflows");
  }
  return bytes;
}

Storage::Storage(const Shape& shape) : Storage(shape, Uninitialized{}) {
  if (ptr_ != nullptr) std::memset(ptr_, 0, bytes_);
}

Storage::Storage(const Shape& shape, Uninitialized) : shape_(shape) {
  bytes_ = checked_bytes(shape);
  ptr_ = alloc_bytes(bytes_, pinned_);
  if (pinned_) {
    track(this);
    tracked_ = true;
  }
  created();
}

Storage::Storage(const Shape& shape, Deferred) : shape_(shape) {
  bytes_ = checked_bytes(shape);
  distributed_ = bytes_ != 0;
  if (distributed_) phase_ = HostPhase::None;  // every access takes the slow path first
  created();
}

// A new container: its number, and in a distributed run an entry of the rank's record.
void Storage::created() {
  serial_ = g_serials.fetch_add(1, std::memory_order_relaxed) + 1;
  if (Distributed* layer = distributed()) layer->container_created(*this);
}

// A synchronisation point of a distributed run (Distributed::synchronise): before this
// rank waits for data or tasks of the container that other ranks take part in.
void Storage::synchronise(SyncPoint what, std::size_t block) const {
  if (Distributed* layer = distributed()) layer->synchronise(what, serial_, block);
}

// The ranks' programs diverged (Distributed::diverged): this rank's tasks on the data may
// wait forever for data that no other rank sends, so nothing waits for them. The handles,
// and the memory StarPU may still write, are left to the end of the process.
void Storage::abandon() noexcept {
  release_windows_locked(true);
  handle_ = nullptr;
  plans_.clear();
  active_plan_ = -1;
  partials_.clear();
  distributed_ = false;
  ptr_ = nullptr;
  bytes_ = 0;
}

Storage::Storage() noexcept = default;

Storage::Storage(ViewOf, void* ptr, const Shape& shape) noexcept
    : ptr_(ptr), bytes_(shape.span() * shape.elem_size), shape_(shape), owning_(false) {}

Storage Storage::clone() {
  if (bytes_ != 0) ensure_read();
  Storage out(shape_);
  if (bytes_ != 0) std::memcpy(out.ptr_, ptr_, bytes_);
  return out;
}

Storage::Storage(Storage&& other) noexcept {
  *this = std::move(other);
}

Storage& Storage::operator=(Storage&& other) noexcept {
  if (this == &other) return *this;
  release();
  ptr_ = std::exchange(other.ptr_, nullptr);
  bytes_ = std::exchange(other.bytes_, 0);
  shape_ = std::exchange(other.shape_, Shape{});
  phase_.store(other.phase_.exchange(HostPhase::Write));
  owning_ = std::exchange(other.owning_, true);
  pinned_ = std::exchange(other.pinned_, false);
  pinned_in_place_ = std::exchange(other.pinned_in_place_, false);
  tracked_ = std::exchange(other.tracked_, false);
  handle_ = std::exchange(other.handle_, nullptr);
  placement_.store(other.placement_.exchange(kHome));
  last_reader_.store(other.last_reader_.exchange(-1));
  plans_ = std::move(other.plans_);
  other.plans_.clear();
  active_plan_ = std::exchange(other.active_plan_, -1);
  partials_ = std::exchange(other.partials_, {});
  last_auto_ = std::exchange(other.last_auto_, SplitState{});
  serial_ = std::exchange(other.serial_, 0);
  auto_users_ = std::exchange(other.auto_users_, {});
  auto_calls_ = std::exchange(other.auto_calls_, 0);
  distributed_ = std::exchange(other.distributed_, false);
  windows_ = std::move(other.windows_);
  other.windows_.clear();
  window_.store(other.window_.exchange(nullptr));
  if (tracked_) retrack(&other, this);
  return *this;
}

Storage::~Storage() {
  release();
}

void Storage::release() noexcept {
  if (tracked_) untrack(this);
  tracked_ = false;
  // Destruction waits for this rank's tasks on the data: a synchronisation point.
  const bool waits =
      handle_ != nullptr || (!distributed_ && !plans_.empty() && plans_[0]->independent);
  if (waits && !may_wait(distributed(), SyncPoint::Destroy, serial_)) {
    abandon();
    return;
  }
  release_windows_locked(true);
  drop_independent_locked();  // a container created distributed: its blocks die with it
  distributed_ = false;
  if (handle_ != nullptr) {
    end_host_phase();
    drop_registration(false);  // the data dies: no rank needs the blocks' values
  }
  if (owning_) free_memory();
  ptr_ = nullptr;
  bytes_ = 0;
}

void Storage::unpin_in_place() noexcept {
  if (pinned_in_place_) starpu_memory_unpin(ptr_, bytes_);
  pinned_in_place_ = false;
}

void Storage::free_memory() noexcept {
  unpin_in_place();
  free_bytes(ptr_, bytes_, pinned_);
  ptr_ = nullptr;
  pinned_ = false;
}

bool Storage::registered() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return handle_ != nullptr || (distributed_ && active_plan_ >= 0);
}

bool Storage::is_distributed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return distributed_;
}

std::size_t Storage::host_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!distributed_) return bytes_;
  std::size_t bytes = 0;
  if (active_plan_ >= 0)
    for (starpu_data_handle_t leaf : plans_[active_plan_]->leaves)
      if (starpu_data_test_if_allocated_on_node(leaf, STARPU_MAIN_RAM) != 0)
        bytes += starpu_data_get_size(leaf);
  return bytes;
}

void Storage::acquire_read() {
  std::lock_guard<std::mutex> lock(mutex_);
  acquire_read_locked();
}

const void* Storage::read_element_slow(std::size_t index) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (phase_ == HostPhase::None) {
    for (const auto& w : windows_) {
      if (!w->held) continue;  // fetched in an earlier phase
      if (const void* p = w->find(index, shape_)) {
        window_.store(w.get(), std::memory_order_release);
        return p;
      }
    }
    if (const void* p = fetch_block_locked(index)) return p;
    acquire_read_locked();
  }
  return static_cast<const char*>(ptr_) + index * shape_.elem_size;
}

// Only the block holding the element comes to the host: for a container partitioned over
// several ranks (one process keeps gathering the whole, which costs it no communication),
// or created distributed (which has no whole to gather into).
const void* Storage::fetch_block_locked(std::size_t index) {
  if (active_plan_ < 0) return nullptr;
  PartitionPlan& plan = *plans_[active_plan_];
  Distributed* layer = distributed();
  if (!plan.independent && (layer == nullptr || layer->nranks() <= 1)) return nullptr;
  std::size_t row = 0, col = index;
  if (shape_.layout == Layout::Matrix) {
    row = index / shape_.ld;
    col = index % shape_.ld;
  }
  for (std::size_t k = 0; k < plan.leaves.size(); ++k) {
    const PartitionPlan::Extent& e = plan.extents[k];
    if (row < e.row0 || row >= e.row0 + e.rows || col < e.col0 || col >= e.col0 + e.cols) continue;
    starpu_data_handle_t block = plan.leaves[k];
    synchronise(SyncPoint::ElementRead, k);
    if (layer != nullptr) layer->fetch_blocks({block});
    const int ret = starpu_data_acquire(block, STARPU_R);
    if (ret != 0) throw Error("starpu_data_acquire(STARPU_R) failed: " + std::to_string(ret));
    const BlockMemory m = block_memory(block, shape_, e);
    // A window of an earlier phase over the same memory is taken again (windows are freed
    // only when no other thread may read through them: see release_windows_locked()).
    BlockWindow* w = nullptr;
    for (const auto& old : windows_) {
      if (old->block != block || old->base != m.base || old->ld != m.ld) continue;
      w = old.get();
      break;
    }
    if (w == nullptr) {
      windows_.push_back(std::make_unique<BlockWindow>());
      w = windows_.back().get();
      w->row0 = e.row0;
      w->row1 = e.row0 + e.rows;
      w->col0 = e.col0;
      w->col1 = e.col0 + e.cols;
      w->block = block;
      w->base = m.base;
      w->ld = m.ld;
    }
    w->held = true;
    window_.store(w, std::memory_order_release);
    rethrow_variant_exception();  // a variant of an earlier call threw on a worker
    return w->find(index, shape_);
  }
  return nullptr;  // e.g. a matrix's padding: no block holds it
}

// Ends the host's hold on the blocks read alone. Their windows are freed only with
// @p forget, by what needs exclusive use of the container (a write, resize, destruction):
// a call that only reads it may end the phase while another thread's element read still
// looks through a window.
void Storage::release_windows_locked(bool forget) noexcept {
  window_.store(nullptr, std::memory_order_release);
  for (auto& w : windows_) {
    if (w->held) starpu_data_release(w->block);
    w->held = false;
  }
  if (forget) windows_.clear();
}

// The whole comes to the host of every rank: each block from its owner, copied into host
// memory allocated now (zeros when no call used the container yet). The blocks stay
// registered until the next call, destruction or detach (drop_independent_locked), so
// that references returned by element reads before stay valid during a host read.
void Storage::materialise_locked() {
  bool pinned = false;
  auto* p = static_cast<char*>(alloc_bytes(bytes_, pinned));
  if (active_plan_ < 0) {
    std::memset(p, 0, bytes_);
  } else {
    PartitionPlan& plan = *plans_[active_plan_];
    if (Distributed* layer = distributed()) {
      std::vector<starpu_data_handle_t> missing;  // blocks already held are here already
      for (starpu_data_handle_t leaf : plan.leaves) {
        bool held = false;
        for (const auto& w : windows_) held = held || (w->held && w->block == leaf);
        if (!held) missing.push_back(leaf);
      }
      layer->fetch_blocks(missing);
    }
    const std::size_t es = shape_.elem_size;
    for (std::size_t k = 0; k < plan.leaves.size(); ++k) {
      starpu_data_handle_t leaf = plan.leaves[k];
      const PartitionPlan::Extent& e = plan.extents[k];
      const int ret = starpu_data_acquire(leaf, STARPU_R);
      if (ret != 0) {
        free_bytes(p, bytes_, pinned);
        throw Error("starpu_data_acquire(STARPU_R) failed: " + std::to_string(ret));
      }
      const BlockMemory m = block_memory(leaf, shape_, e);
      for (std::size_t r = 0; r < e.rows; ++r)
        std::memcpy(p + ((e.row0 + r) * shape_.ld + e.col0) * es, m.base + r * m.ld * es,
                    e.cols * es);
      starpu_data_release(leaf);
    }
  }
  ptr_ = p;
  pinned_ = pinned;
  distributed_ = false;
  if (pinned_ || tracked_) {  // tracked again: the registry holds where the memory is
    track(this);
    tracked_ = true;
  }
  placement_ = kHome;
  last_reader_ = STARPU_MAIN_RAM;
  phase_ = HostPhase::Write;  // plain memory until a call registers it
  rethrow_variant_exception();
}

// The first partitioned call of a container created distributed: each block is data of
// its own, registered without host memory (home -1), owned by its rank (StarPU-MPI), and
// zero-filled by a task there, which StarPU runs on a worker of that rank.
void Storage::plan_distributed_locked(const PartitionSpec& spec) {
  const bool matrix = shape_.layout == Layout::Matrix;
  check_spec(spec, shape_);
  auto plan = std::make_unique<PartitionPlan>();
  plan->spec = spec;
  plan->independent = true;
  plan->extents = extents_of(spec, shape_);
  for (const PartitionPlan::Extent& e : plan->extents) {
    starpu_data_handle_t h = nullptr;
    if (matrix)
      starpu_matrix_data_register(&h, -1, 0, to_u32(e.cols, "columns"), to_u32(e.cols, "columns"),
                                  to_u32(e.rows, "rows"), shape_.elem_size);
    else
      starpu_vector_data_register(&h, -1, 0, to_u32(e.cols, "block size"), shape_.elem_size);
    plan->leaves.push_back(h);
  }
  plan->top = plan->leaves;
  Distributed* layer = distributed();
  if (layer != nullptr) layer->blocks_planned(nullptr, plan->leaves);
  plans_.push_back(std::move(plan));
  active_plan_ = static_cast<int>(plans_.size() - 1);
  g_partitions.fetch_add(1, std::memory_order_relaxed);
  if (!tracked_) {  // shutdown materialises it (detach)
    track(this);
    tracked_ = true;
  }
  placement_ = 0;  // StarPU places the blocks
  static starpu_codelet vector_zero = zero_codelet(zero_vector, "peppher_zero_block");
  static starpu_codelet matrix_zero = zero_codelet(zero_matrix, "peppher_zero_block");
  for (starpu_data_handle_t leaf : plans_[active_plan_]->leaves) {
    starpu_task* task = starpu_task_create();
    task->cl = matrix ? &matrix_zero : &vector_zero;
    task->handles[0] = leaf;
    wake_workers();  // paused while the runtime was idle (idle_workers.h)
    const int ret = layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
    if (ret < 0) {
      task->destroy = 0;
      starpu_task_destroy(task);
      throw Error(std::string("a container created distributed zero-fills its blocks on a CPU "
                              "worker, and StarPU could not run the task (") +
                  (ret == -ENODEV ? "no CPU worker" : "error " + std::to_string(ret)) + ")");
    }
  }
}

// A container created distributed and since materialised: its blocks are not needed any
// more (the host copy is the value).
void Storage::drop_independent_locked() noexcept {
  if (distributed_ || plans_.empty() || !plans_[0]->independent) return;
  release_windows_locked(true);
  for (const auto& h : plans_[0]->halos) {
    for (starpu_data_handle_t piece : h.first)
      if (piece != nullptr) starpu_data_unregister_submit(piece);
    for (starpu_data_handle_t piece : h.last)
      if (piece != nullptr) starpu_data_unregister_submit(piece);
  }
  // Waits for the block's tasks and communications, then frees what StarPU allocated for
  // it, in this thread (as the destructor of any container waits for its tasks).
  for (starpu_data_handle_t leaf : plans_[0]->leaves) starpu_data_unregister(leaf);
  plans_.clear();
  active_plan_ = -1;
}

void Storage::acquire_read_locked() {
  if (phase_ != HostPhase::None) return;  // another reader began the phase meanwhile
  if (distributed_ || handle_ != nullptr) synchronise(SyncPoint::HostRead);
  if (distributed_) {
    materialise_locked();
    return;
  }
  if (handle_ == nullptr) {  // plain memory or view: nothing to do, ever
    phase_ = HostPhase::Write;
    return;
  }
  release_windows_locked(false);  // the gather reads the blocks after their writers
  unpartition_active();
  if (Distributed* layer = distributed()) layer->host_access(handle_);
  const int ret = starpu_data_acquire(handle_, STARPU_R);
  if (ret != 0) throw Error("starpu_data_acquire(STARPU_R) failed: " + std::to_string(ret));
  if (placement_ != 0) placement_ |= kHome;  // a copy came home (unknown stays: StarPU knows)
  last_reader_ = STARPU_MAIN_RAM;
  phase_ = HostPhase::Read;
  rethrow_variant_exception();  // a variant of an earlier call threw on a worker
}

void Storage::acquire_write() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (phase_ == HostPhase::Write) return;
  if (distributed_ || handle_ != nullptr) synchronise(SyncPoint::HostWrite);
  release_windows_locked(true);
  if (distributed_) {
    materialise_locked();
    return;
  }
  if (handle_ == nullptr) {
    phase_ = HostPhase::Write;
    return;
  }
  if (phase_ == HostPhase::Read) {
    starpu_data_release(handle_);
    phase_ = HostPhase::None;
  }
  unpartition_active();
  if (Distributed* layer = distributed()) layer->host_access(handle_);
  const int ret = starpu_data_acquire(handle_, STARPU_RW);
  if (ret != 0) throw Error("starpu_data_acquire(STARPU_RW) failed: " + std::to_string(ret));
  placement_ = kHome;  // device copies are invalidated
  last_reader_ = STARPU_MAIN_RAM;
  phase_ = HostPhase::Write;
  rethrow_variant_exception();  // a variant of an earlier call threw on a worker
}

void Storage::end_host_phase() noexcept {
  release_windows_locked(false);
  if (handle_ == nullptr) return;
  if (phase_ != HostPhase::None) starpu_data_release(handle_);
  if (phase_ == HostPhase::Write) {
    if (Distributed* layer = distributed()) layer->host_written(handle_);
  }
  phase_ = HostPhase::None;
}

std::vector<starpu_data_handle_t> Storage::all_blocks() const {
  std::vector<starpu_data_handle_t> blocks;
  for (const auto& plan : plans_) {
    blocks.insert(blocks.end(), plan->top.begin(), plan->top.end());
    for (const auto& row : plan->sub) blocks.insert(blocks.end(), row.begin(), row.end());
  }
  return blocks;
}

void Storage::check_task_use(const char* what) const {
  if (!owning_) throw Error(std::string(what) + ": a view cannot be passed to a component call");
  if (!is_running())
    throw Error(std::string(what) +
                ": container used in a component call while the runtime is not running "
                "(before peppher::init() or after peppher::shutdown())");
  if (bytes_ == 0)
    throw Error(std::string(what) + ": an empty container cannot be passed to a component call");
}

void Storage::register_handle() {
  const auto nx = to_u32(shape_.nx, "container size");
  const auto ny = to_u32(shape_.ny, "matrix rows");
  const auto ld = to_u32(shape_.ld, "matrix leading dimension");
  // Allocated before init(): pinned where it is (never moved, so pointers other threads
  // hold stay valid); StarPU still works with the memory if pinning fails.
  if (!pinned_ && !pinned_in_place_) pinned_in_place_ = starpu_memory_pin(ptr_, bytes_) == 0;
  const auto home = static_cast<uintptr_t>(reinterpret_cast<std::uintptr_t>(ptr_));
  switch (shape_.layout) {
    case Layout::Vector:
      starpu_vector_data_register(&handle_, STARPU_MAIN_RAM, home, nx, shape_.elem_size);
      break;
    case Layout::Matrix:
      starpu_matrix_data_register(&handle_, STARPU_MAIN_RAM, home, ld, nx, ny, shape_.elem_size);
      break;
    case Layout::Variable:
      starpu_variable_data_register(&handle_, STARPU_MAIN_RAM, home, shape_.elem_size);
      break;
  }
  if (Distributed* layer = distributed()) layer->container_registered(handle_);
  if (!tracked_) {
    track(this);
    tracked_ = true;
  }
}

starpu_data_handle_t Storage::handle_for_task() {
  std::lock_guard<std::mutex> lock(mutex_);
  return handle_for_task_locked();
}

std::vector<starpu_data_handle_t> Storage::partition(const PartitionSpec& spec) {
  std::lock_guard<std::mutex> lock(mutex_);
  return partition_locked(spec);
}

starpu_data_handle_t Storage::handle_for_task_locked() {
  check_task_use("handle_for_task");
  end_host_phase();
  if (distributed_) {
    synchronise(SyncPoint::Gather);
    materialise_locked();  // a whole-data call: the whole on every rank
  }
  drop_independent_locked();
  if (handle_ == nullptr)
    register_handle();
  else
    unpartition_active();
  phase_ = HostPhase::None;
  return handle_;
}

std::vector<starpu_data_handle_t> Storage::partition_locked(const PartitionSpec& spec,
                                                            bool overwritten) {
  check_task_use("partition");
  end_host_phase();
  if (distributed_) {
    if (active_plan_ < 0) plan_distributed_locked(spec);
    if (plans_[active_plan_]->spec == spec) {
      phase_ = HostPhase::None;
      return plans_[active_plan_]->leaves;
    }
    synchronise(SyncPoint::Gather);
    materialise_locked();  // another split: from the whole, as for any container
  }
  drop_independent_locked();
  if (handle_ == nullptr) register_handle();
  phase_ = HostPhase::None;
  if (active_plan_ >= 0 && plans_[active_plan_]->spec == spec) return plans_[active_plan_]->leaves;
  unpartition_active();

  int found = -1;
  for (std::size_t i = 0; i < plans_.size(); ++i)
    if (plans_[i]->spec == spec) found = static_cast<int>(i);
  if (found < 0) {
    auto plan = std::make_unique<PartitionPlan>();
    plan->spec = spec;
    using Kind = PartitionSpec::Kind;
    check_spec(spec, shape_);
    if (spec.kind == Kind::VectorBlocks) {
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_vector_filter_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else if (spec.kind == Kind::VectorSizes || spec.kind == Kind::MatrixRowSizes) {
      const bool rows = spec.kind == Kind::MatrixRowSizes;
      for (std::size_t size : spec.args) plan->sizes.push_back(to_u32(size, "block size"));
      plan->top.resize(spec.args.size());
      auto f = make_filter(rows ? matrix_filter_row_list : starpu_vector_filter_list,
                           spec.args.size(), plan->sizes.data());
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else if (spec.kind == Kind::MatrixCols) {
      // StarPU's matrix x dimension is the row-major matrix's columns: the (horizontal)
      // block filter cuts them into column blocks of every row, block_range's sizes.
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_matrix_filter_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else {
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_matrix_filter_vertical_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
      if (spec.kind == Kind::Matrix2d) {
        plan->sub.resize(plan->top.size());
        for (std::size_t i = 0; i < plan->top.size(); ++i) {
          plan->sub[i].resize(spec.args[1]);
          auto g = make_filter(starpu_matrix_filter_block, spec.args[1]);
          starpu_data_partition_plan(plan->top[i], &g, plan->sub[i].data());
        }
      }
    }
    plan->extents = extents_of(spec, shape_);
    if (plan->sub.empty())
      plan->leaves = plan->top;
    else
      for (const auto& row : plan->sub)
        plan->leaves.insert(plan->leaves.end(), row.begin(), row.end());
    assert(plan->extents.size() == plan->leaves.size());  // element reads find blocks by them
    // Distributed: the leaves (what tasks use) get their owner ranks; a 2-D plan's row
    // bands stay local intermediates.
    if (Distributed* layer = distributed()) layer->blocks_planned(handle_, plan->leaves);
    plans_.push_back(std::move(plan));
    found = static_cast<int>(plans_.size() - 1);
  }
  PartitionPlan& plan = *plans_[found];
  g_partitions.fetch_add(1, std::memory_order_relaxed);
  starpu_data_partition_submit(handle_, static_cast<unsigned>(plan.top.size()), plan.top.data());
  for (std::size_t i = 0; i < plan.sub.size(); ++i)
    starpu_data_partition_submit(plan.top[i], static_cast<unsigned>(plan.sub[i].size()),
                                 plan.sub[i].data());
  active_plan_ = found;
  if (Distributed* layer = distributed()) layer->partitioned(handle_, plan.leaves, overwritten);
  return plan.leaves;
}

void Storage::unpartition_active(bool gather) noexcept {
  if (active_plan_ < 0 || plans_[active_plan_]->independent) return;
  g_gathers.fetch_add(1, std::memory_order_relaxed);
  PartitionPlan& plan = *plans_[active_plan_];
  // Distributed: every rank's whole copy is rebuilt from the blocks' owners (unless the
  // data is being dropped).
  if (Distributed* layer = distributed(); layer != nullptr && gather)
    layer->gathering(handle_, plan.leaves);
  for (std::size_t i = 0; i < plan.sub.size(); ++i)
    starpu_data_unpartition_submit(plan.top[i], static_cast<unsigned>(plan.sub[i].size()),
                                   plan.sub[i].data(), STARPU_MAIN_RAM);
  starpu_data_unpartition_submit(handle_, static_cast<unsigned>(plan.top.size()), plan.top.data(),
                                 STARPU_MAIN_RAM);
  placement_ = kHome;  // gathered at home
  active_plan_ = -1;
}

SplitRecord Storage::split_record() const {
  std::lock_guard<std::mutex> lock(mutex_);
  SplitRecord r;
  if (active_plan_ >= 0) {
    r.active.sizes = sizes_of(plans_[active_plan_]->spec, shape_);
    if (!r.active.sizes.empty() && r.active.sizes == last_auto_.sizes) r.active = last_auto_;
  }
  r.last_auto = last_auto_;
  // Recent: among the last 2 x (number of interfaces) `?` calls on the container.
  for (const auto& [iface, last] : auto_users_)
    if (auto_calls_ - last < 2 * auto_users_.size()) r.sharing.push_back(iface);
  return r;
}

bool Storage::split_free() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_plan_ < 0 && !last_auto_.modelled;
}

void Storage::note_auto_split_locked(const char* iface, const SplitState& split) {
  last_auto_ = split;
  ++auto_calls_;
  for (auto& [name, last] : auto_users_)
    if (name == iface) {
      last = auto_calls_;
      return;
    }
  auto_users_.emplace_back(iface, auto_calls_);
}

void Storage::halo_pieces_locked(const PartitionSpec& spec, std::size_t halo,
                                 std::vector<starpu_data_handle_t>& first,
                                 std::vector<starpu_data_handle_t>& last) {
  if (active_plan_ < 0 || !(plans_[active_plan_]->spec == spec))
    throw Error("halo: the container is not partitioned as the call asks");
  PartitionPlan& plan = *plans_[active_plan_];
  for (const auto& h : plan.halos) {
    if (h.halo != halo) continue;
    first = h.first;
    last = h.last;
    return;
  }
  const bool matrix = shape_.layout == Layout::Matrix;
  const std::size_t n = plan.leaves.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t size =
        matrix ? starpu_matrix_get_ny(plan.leaves[k]) : starpu_vector_get_nx(plan.leaves[k]);
    if (size < halo && n > 1)
      throw Error("halo: block " + std::to_string(k) + " has " + std::to_string(size) +
                  (matrix ? " rows" : " elements") + ", fewer than its halo of " +
                  std::to_string(halo) + "; use larger blocks or a smaller halo");
  }
  PartitionPlan::HaloPieces pieces;
  pieces.halo = halo;
  pieces.first.assign(n, nullptr);
  pieces.last.assign(n, nullptr);
  auto make = [&](starpu_data_handle_t& h) {
    // Home -1: StarPU allocates each piece where a task or a transfer needs it.
    if (matrix)
      starpu_matrix_data_register(&h, -1, 0, to_u32(shape_.nx, "columns"),
                                  to_u32(shape_.nx, "columns"), to_u32(halo, "halo"),
                                  shape_.elem_size);
    else
      starpu_vector_data_register(&h, -1, 0, to_u32(halo, "halo"), shape_.elem_size);
  };
  for (std::size_t k = 0; k < n && halo > 0; ++k) {
    std::vector<starpu_data_handle_t> mine;
    if (k > 0) {
      make(pieces.first[k]);
      mine.push_back(pieces.first[k]);
    }
    if (k + 1 < n) {
      make(pieces.last[k]);
      mine.push_back(pieces.last[k]);
    }
    // Distributed: the pieces live with their block (same owner), tagged in the same order
    // on every rank.
    if (Distributed* layer = distributed()) layer->halo_registered(plan.leaves[k], mine);
  }
  first = pieces.first;
  last = pieces.last;
  plan.halos.push_back(std::move(pieces));
}

std::vector<starpu_data_handle_t> Storage::reduction_partials_locked(std::size_t count) {
  for (const auto& p : partials_)
    if (p.size() == count) return p;
  std::vector<starpu_data_handle_t> partials(count, nullptr);
  for (starpu_data_handle_t& h : partials)
    starpu_variable_data_register(&h, -1, 0, shape_.elem_size);
  // Distributed: tagged in the same order on every rank, owned like the blocks of a plan.
  if (Distributed* layer = distributed()) layer->blocks_planned(handle_, partials);
  partials_.push_back(partials);
  return partials;
}

void Storage::drop_registration(bool gather) noexcept {
  drop_independent_locked();
  unpartition_active(gather);
  if (Distributed* layer = distributed()) layer->unregistering(handle_, all_blocks());
  for (auto& plan : plans_) {
    for (const auto& h : plan->halos) {
      for (starpu_data_handle_t piece : h.first)
        if (piece != nullptr) starpu_data_unregister_submit(piece);
      for (starpu_data_handle_t piece : h.last)
        if (piece != nullptr) starpu_data_unregister_submit(piece);
    }
    for (std::size_t i = 0; i < plan->sub.size(); ++i)
      starpu_data_partition_clean(plan->top[i], static_cast<unsigned>(plan->sub[i].size()),
                                  plan->sub[i].data());
    starpu_data_partition_clean(handle_, static_cast<unsigned>(plan->top.size()), plan->top.data());
  }
  plans_.clear();
  for (const auto& p : partials_)
    for (starpu_data_handle_t h : p) starpu_data_unregister_submit(h);
  partials_.clear();
  starpu_data_unregister(handle_);  // waits for pending tasks, brings the data home
  handle_ = nullptr;
  placement_ = kHome;
  phase_ = HostPhase::Write;
}

void Storage::reshape(const Shape& shape) {
  if (!owning_) throw Error("resize: a view cannot be resized");
  bool read_blocks = false;  // element reads since the last call (their blocks' writers ended)
  for (const auto& w : windows_) read_blocks = read_blocks || w->held;
  if ((handle_ != nullptr || (distributed_ && active_plan_ >= 0)) && phase_ == HostPhase::None &&
      !read_blocks)
    throw Error(
        "resize: the container was last used by a component call whose tasks may still be "
        "running; access it from the host first (e.g. host_write()), which waits for them");
  end_host_phase();
  release_windows_locked(true);
  if (distributed_) {
    synchronise(SyncPoint::Resize);
    materialise_locked();  // resize keeps the values
  }
  drop_independent_locked();
  if (handle_ != nullptr) drop_registration();
  const std::size_t bytes = checked_bytes(shape);
  bool pinned = false;
  void* p = alloc_bytes(bytes, pinned);
  if (p != nullptr) std::memset(p, 0, bytes);
  const std::size_t keep = bytes < bytes_ ? bytes : bytes_;
  if (keep != 0) std::memcpy(p, ptr_, keep);
  free_memory();
  ptr_ = p;
  bytes_ = bytes;
  pinned_ = pinned;
  shape_ = shape;
  phase_ = HostPhase::Write;
  last_auto_ = SplitState{};  // the old extent's split
  if (pinned_ || tracked_) {  // tracked again: the registry holds where the memory is
    track(this);
    tracked_ = true;
  }
}

void Storage::note_task_locked(starpu_data_access_mode mode, int node) noexcept {
  const std::uint32_t here = node >= 0 && node < 32 ? 1u << node : 0u;
  if ((mode & STARPU_R) != 0 && here != 0) last_reader_ = node;
  if ((mode & STARPU_W) != 0)
    placement_ = here;  // valid only where it was written (0: StarPU chooses where)
  else if (placement_ != 0)
    placement_ |= here;  // one more copy (unknown stays unknown)
}

starpu_data_handle_t Storage::registered_handle() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return handle_;
}

void Storage::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  end_host_phase();
  release_windows_locked(true);
  if (distributed_) materialise_locked();  // every rank keeps the values
  drop_independent_locked();
  if (handle_ != nullptr) {
    end_host_phase();
    unpartition_active();
    // Distributed: every rank keeps the current values, fetched from their owner.
    if (Distributed* layer = distributed()) layer->host_access(handle_);
    drop_registration();
  }
  unpin_in_place();
  if (pinned_) {
    void* p = std::aligned_alloc(kAlign, (bytes_ + kAlign - 1) / kAlign * kAlign);
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, ptr_, bytes_);
    free_bytes(ptr_, bytes_, true);
    ptr_ = p;
    pinned_ = false;
  }
  phase_ = HostPhase::Write;
  // Out of the registry: shutdown took this storage out, but materialising it above put it
  // back (it holds pinned memory then); a storage detached is not tracked any more.
  untrack(this);
  tracked_ = false;
}

}  // namespace peppher::detail

namespace peppher {

PartitionCounts partition_counts() noexcept {
  PartitionCounts c;
  c.partitions = detail::g_partitions.load(std::memory_order_relaxed);
  c.gathers = detail::g_gathers.load(std::memory_order_relaxed);
  return c;
}

}  // namespace peppher
