// The blocks a host reads alone and the blocks of containers created distributed: an
// element read that fetches only the block holding the element (BlockWindow), the first
// partitioned call of a container created distributed (each block data of its own,
// zero-filled where its tasks run), and materialising the whole when anything else needs it.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "data/storage_parts.h"
#include "devices/devices.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/variant_errors.h"
#include "peppher/error.h"

namespace peppher::detail {
namespace {

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
#ifdef STARPU_SIMGRID
  // Simulated: no performance model here, so it runs as it is, in no simulated time (StarPU
  // asserts on a simulated task without a model).
  c.flags |= STARPU_CODELET_SIMGRID_EXECUTE;
#endif
  return c;
}

}  // namespace

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
  count_partition();
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
    wake_workers();  // paused while the runtime was idle (devices/devices.h)
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

}  // namespace peppher::detail
