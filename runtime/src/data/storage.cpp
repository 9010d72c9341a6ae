// Storage: memory (pinned when the runtime is up), lazy StarPU registration, the host
// access phases (one acquisition per phase, paper IV.D), reshaping and detaching at shutdown.
// Partition plans, halos, reduction partials and the blocks of containers created
// distributed are in the files beside it (data/storage_parts.h lists them).
#include "peppher/detail/storage.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "data/storage_parts.h"
#include "lifecycle/lifecycle.h"
#include "peppher/detail/checks.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/variant_errors.h"
#include "peppher/error.h"
#include "peppher/init.h"

namespace peppher::detail {
namespace {

// Containers created so far in this process (Storage::serial()).
std::atomic<std::uint64_t> g_serials{0};

// The kernel's transparent huge page size (0: none offered), read once.
std::size_t huge_page_bytes() {
  static const std::size_t kBytes = [] {
    std::size_t bytes = 0;
    if (std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r")) {
      unsigned long long n = 0;
      if (std::fscanf(f, "%llu", &n) == 1) bytes = static_cast<std::size_t>(n);
      std::fclose(f);
    }
    return bytes;
  }();
  return kBytes;
}

// Asks for transparent huge pages on the whole pages of [p, p + bytes) when it spans one.
// A container's memory is touched first by its copy or zeroing: in 4 KiB pages that is a
// fault per page (a 14 MB container: 3,400 faults, 45 ms in a virtual machine, where the
// program it replaces allocated nothing), in huge pages a few (1-30 ms there, depending on
// the kernel's compaction). Kernels whose THP mode is "always" do it anyway, "never"
// ignores it; the memory stays ordinary (a hint: failures are ignored). Not on CUDA's
// pinned host memory, which is populated and locked when allocated.
void advise_huge_pages(void* p, std::size_t bytes) noexcept {
  const std::size_t huge = huge_page_bytes();
  if (huge == 0 || bytes < huge) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace

void* alloc_bytes(std::size_t bytes, bool& pinned) {
  pinned = false;
  if (bytes == 0) return nullptr;
  if (started()) {  // during a background start: as before init(), pinned at the first call
    void* p = nullptr;
    if (starpu_malloc_flags(&p, bytes, STARPU_MALLOC_PINNED) == 0 && p != nullptr) {
      pinned = true;
      if (starpu_cuda_worker_get_count() == 0) advise_huge_pages(p, bytes);
      return p;
    }
    throw std::bad_alloc();
  }
  void* p = std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  if (p == nullptr) throw std::bad_alloc();
  advise_huge_pages(p, bytes);
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
  // Memory a container took over is left to the end of the process too.
  if (keeper_ != nullptr) new std::shared_ptr<void>(std::move(keeper_));  // NOLINT: kept alive
  external_ = false;
}

Storage::Storage() noexcept = default;

Storage::Storage(ViewOf, void* ptr, const Shape& shape) noexcept
    : ptr_(ptr), bytes_(shape.span() * shape.elem_size), shape_(shape), owning_(false) {}

Storage::Storage(External, void* ptr, const Shape& shape, std::shared_ptr<void> keeper)
    : ptr_(ptr), shape_(shape), external_(true), keeper_(std::move(keeper)) {
  bytes_ = checked_bytes(shape);
  if (ptr_ == nullptr && bytes_ != 0)
    throw Error("a container over a null array of " + std::to_string(bytes_) + " bytes");
  created();
}

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
  external_ = std::exchange(other.external_, false);
  keeper_ = std::exchange(other.keeper_, nullptr);
  tracked_ = std::exchange(other.tracked_, false);
  handle_ = std::exchange(other.handle_, nullptr);
  placement_.store(other.placement_.exchange(kHome));
  last_reader_.store(other.last_reader_.exchange(-1));
  reuse_ = std::move(other.reuse_);
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
    // The data dies: no rank needs the blocks' values, unless they go to the program's array.
    drop_registration(is_borrowed());
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
  if (external_)
    keeper_.reset();  // the program's memory: its owner (if we hold it) frees it
  else
    free_bytes(ptr_, bytes_, pinned_);
  external_ = false;
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
  reuse_.reset();  // new data: the calls that read the old one do not pay for moving this
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

void Storage::check_task_use(const char* what) const {
  if (!owning_) throw Error(std::string(what) + ": a view cannot be passed to a component call");
  wait_until_started();
  if (!started())
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
  reuse_.reset();
  phase_ = HostPhase::Write;
}

void Storage::reshape(const Shape& shape) {
  if (!owning_) throw Error("resize: a view cannot be resized");
  if (is_borrowed())
    throw Error(
        "resize: a container over the program's own array (borrow()) cannot be "
        "resized: the array would no longer receive its results");
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
