// A call's submission (detail::Call::submit): the containers locked, operands resolved into
// handles or blocks, one task per block built and submitted (the one place a block's task
// reaches StarPU), and the release of what was registered for the call only.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <utility>

#include "call/call_parts.h"
#include "call/split_sizing.h"
#include "devices/devices.h"
#include "observe/simulated_runs.h"
#include "peppher/detail/backends.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/raw_cache.h"
#include "peppher/detail/trace.h"
#include "peppher/error.h"
#include "peppher/partitioned_call.h"
#include "peppher/placement.h"
#include "peppher/task.h"

namespace peppher::detail {
namespace {

// The containers' mutexes a call holds while it submits (Call::submit), unlocked when it
// leaves, however it leaves.
struct HeldLocks {
  HeldLocks() = default;
  HeldLocks(const HeldLocks&) = delete;
  HeldLocks& operator=(const HeldLocks&) = delete;
  ~HeldLocks() {
    for (std::size_t i = held.size(); i > 0; --i) held[i - 1]->unlock();
  }
  SmallVector<std::mutex*, STARPU_NMAXBUFS> held;
};

}  // namespace

// The error for a failed starpu_task_submit of interface @p iface.
Error submit_error(const char* iface, int ret) {
  if (ret == -ENODEV) {
    std::string workers;  // "1 CPU, 0 CUDA, 1 OpenCL"
    for (const Backend& b : kBackends)
      if (b.workers_label != nullptr)
        workers +=
            (workers.empty() ? "" : ", ") + std::to_string(workers_of(b)) + " " + b.workers_label;
    return Error(std::string(iface) +
                 ": no worker can run any of its variants (no enabled variant for the workers "
                 "this run has: " +
                 workers + ")");
  }
  return Error(std::string(iface) + ": starpu_task_submit failed (" + std::to_string(ret) + ")");
}

Call::Call(starpu_codelet* codelet, const char* iface) : codelet_(codelet), iface_(iface) {
  require_running(iface);
}

Call::~Call() {
  for (void* a : args_)  // not handed to a task
    if (a != nullptr) std::free(static_cast<char*>(a) - kTaskBytes);
  if (unsubmitted_ != nullptr) starpu_task_destroy(unsubmitted_);  // frees its arguments too
  release();
}

void* Call::args(std::size_t b) const noexcept {
  return b < args_.size() ? args_[b] : nullptr;
}

void* Call::make_args(std::size_t b, std::size_t size) {
  if (b >= blocks()) throw Error(std::string(iface_) + ": no block " + std::to_string(b));
  args_.grow(blocks(), nullptr);
  if (args_[b] == nullptr) {
    void* block = std::malloc(kTaskBytes + size);  // the task's and the arguments' (make_task)
    if (block == nullptr) throw std::bad_alloc();
    args_[b] = static_cast<char*>(block) + kTaskBytes;
  }
  args_size_ = size;
  return args_[b];
}

// ---- submission --------------------------------------------------------------------------

// Whether this call writes every block of @p op's container without reading any: its
// codelet's mode for @p op is write-only and no other operand names the same container.
bool Call::overwrites(const Operand& op) const {
  if ((STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_R) != 0) return false;
  for (const Operand& other : ops_)
    if (&other != &op && other.container == op.container) return false;
  return true;
}

void Call::resolve() {
  for (Operand& op : ops_) {
    if (op.kind == OperandKind::Container) {
      op.handle = op.container->handle_for_task_locked();
    } else if (op.kind == OperandKind::ContainerSplit && op.auto_split && op.sizes.size() == 1 &&
               distributed() == nullptr) {
      // A `?` split into one block (one capable worker) in one process: the block is the
      // whole container, so its task gets the container's own handle, with no partition
      // plan to make, keep or undo (the same task, the same data).
      op.blocks.assign(1, op.container->handle_for_task_locked());
      if (!quick_) op.container->note_auto_split_locked(iface_, auto_split_);
      if (op.halo_index >= 0) {  // no neighbour: the block itself stands for both halos
        op.halo_first.assign(1, nullptr);
        op.halo_last.assign(1, nullptr);
      }
    } else if (op.kind == OperandKind::ContainerSplit) {
      op.blocks = op.container->partition_locked(op.spec, overwrites(op));
      if (op.auto_split) op.container->note_auto_split_locked(iface_, auto_split_);
      if (op.blocks.size() != op.sizes.size())
        throw Error(std::string(iface_) + ": '" + op.name + "' was split into " +
                    std::to_string(op.blocks.size()) + " blocks instead of " +
                    std::to_string(op.sizes.size()));
      if (op.halo_index >= 0) {
        const bool matrix = op.container->shape().layout == Layout::Matrix;
        for (std::size_t b = 0; b < op.sizes.size() && op.sizes.size() > 1; ++b)
          if (op.sizes[b] < op.halo)
            throw Error(std::string(iface_) + ": block " + std::to_string(b) + " of '" + op.name +
                        "' has " + std::to_string(op.sizes[b]) + (matrix ? " rows" : " elements") +
                        ", fewer than its halo of " + std::to_string(op.halo) +
                        " (a block's task reads its halo from its two neighbours only); use "
                        "larger blocks or a smaller halo");
        std::vector<starpu_data_handle_t> first, last;
        op.container->halo_pieces_locked(op.spec, op.halo, first, last);
        op.halo_first = first;
        op.halo_last = last;
      }
    } else if (op.kind == OperandKind::RawSplit) {
      resolve_raw_split(op);
    } else if (op.kind == OperandKind::ContainerReduce) {
      op.handle = op.container->handle_for_task_locked();
      if (reduces_in_place(op, blocks()))
        op.blocks.assign(1, op.handle);
      else
        op.blocks = op.container->reduction_partials_locked(blocks());
    }
  }
}

starpu_task* Call::make_task(std::size_t b) {
  starpu_task* task = nullptr;
  if (b < args_.size() && args_[b] != nullptr) {
    // The task in front of its arguments, as starpu_task_create() makes one (malloc, init,
    // destroyed with the task): StarPU frees a task it destroys with free(), the arguments
    // with it. One allocation per task instead of two: each is made by the calling thread
    // and freed by a worker, and such pairs meet in glibc's arena lock (apps/ode on one CPU
    // worker: the worker blocked there about twice per step of 22 calls; one allocation less
    // per task, 4 % less time).
    void* args = std::exchange(args_[b], nullptr);
    task = reinterpret_cast<starpu_task*>(static_cast<char*>(args) - kTaskBytes);
    starpu_task_init(task);
    task->destroy = 1;
    task->cl_arg = args;
    task->cl_arg_size = args_size_;
    task->cl_arg_free = 0;  // freed with the task
  } else {
    task = starpu_task_create();
  }
  task->cl = codelet_;
  // More buffers than the task's own array holds: a malloc'd array, which StarPU frees with
  // the task (and then passes the variants its own malloc'd array of interfaces). Only then:
  // it costs StarPU three more allocations per task.
  const auto nbuffers = static_cast<std::size_t>(codelet_->nbuffers);
  if (nbuffers > STARPU_NMAXBUFS) {
    task->dyn_handles =
        static_cast<starpu_data_handle_t*>(std::calloc(nbuffers, sizeof(starpu_data_handle_t)));
    if (task->dyn_handles == nullptr) {
      task->destroy = 0;
      starpu_task_destroy(task);  // frees its argument block too
      throw std::bad_alloc();
    }
  }
  for (const Operand& op : ops_) {
    STARPU_TASK_SET_HANDLE(task, op.handle_of_block(b), op.index);
    if (op.halo_index < 0) continue;
    // The neighbours' boundaries; at an end, the block itself (read twice, no halo).
    const bool before = b > 0 && op.halo > 0, after = b + 1 < op.blocks.size() && op.halo > 0;
    STARPU_TASK_SET_HANDLE(task, before ? op.halo_last[b - 1] : op.blocks[b], op.halo_index);
    STARPU_TASK_SET_HANDLE(task, after ? op.halo_first[b + 1] : op.blocks[b], op.halo_index + 1);
  }
  if (b < workers_.size() && workers_[b] >= 0) {
    task->execute_on_a_specific_worker = 1;
    task->workerid = static_cast<unsigned>(workers_[b]);
  } else if (fit_mask_ != nullptr) {  // only the workers whose memory holds it (call/fit.cpp)
    task->workerids = const_cast<std::uint32_t*>(fit_mask_);
    task->workerids_len = fit_mask_len_;
  }
  return task;
}

void Call::remember_equal_block(starpu_task* task) {
  // The same task on the whole of the `?` operands (their unpartitioned handles, which
  // still describe all the data), never submitted: a model of functions predicts it too,
  // so the split learns a block's fixed cost apart from its cost per element.
  const auto nbuffers = static_cast<std::size_t>(codelet_->nbuffers);
  bool whole_known = nbuffers <= STARPU_NMAXBUFS && auto_split_.sizes.size() > 1;
  starpu_task whole;
  starpu_task_init(&whole);
  whole.cl = task->cl;
  whole.cl_arg = task->cl_arg;
  whole.cl_arg_size = task->cl_arg_size;
  for (std::size_t i = 0; whole_known && i < nbuffers; ++i)
    whole.handles[i] = STARPU_TASK_GET_HANDLE(task, static_cast<int>(i));
  for (const Operand& op : ops_) {
    if (!whole_known || !op.auto_split) continue;
    starpu_data_handle_t all =
        op.container != nullptr ? op.container->registered_handle_locked() : op.handle;
    if (all == nullptr || op.halo_index >= 0) {  // a halo's pieces have no whole: not asked
      whole_known = false;
      continue;
    }
    whole.handles[op.index] = all;
  }
  auto_->remember(auto_extent_, auto_workers_, codelet_->model, task, auto_split_.sizes.size(),
                  whole_known ? &whole : nullptr);
  whole.cl_arg = nullptr;  // the block's task owns it
  starpu_task_clean(&whole);
}

bool Call::submit_task(starpu_task* task, std::size_t b) {
  // The footprint of an equal block, where the history model's predictions for this
  // interface's equal splits are found (model_split).
  if (b == 0 && auto_ != nullptr && workers_.empty() && codelet_->model != nullptr &&
      is_even(auto_extent_, auto_split_.sizes))
    remember_equal_block(task);
  // Through the distributed layer when there is one (StarPU-MPI decides which rank runs
  // it): 0 submitted here, 1 run by another rank (the task is gone), < 0 StarPU's error.
  trace_task(task, iface_, nblocks_ == 0 ? -1 : static_cast<int>(b));  // PEPPHER_TRACE
  count_simulated_run(task);  // StarPU on SimGrid: the report counts the task's end
  Distributed* layer = distributed();
  wake_workers();  // paused while the runtime was idle (devices/devices.h)
  const int ret = layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
  task_submitted();  // CPU workers blocked beside a busy OpenCL device poll (devices/devices.h)
  if (ret < 0) {
    trace_detach(task);
    task->destroy = 0;          // starpu_task_destroy refuses auto-destroyed detached tasks
    starpu_task_destroy(task);  // frees its argument block too
    throw submit_error(iface_, ret);
  }
  submitted_ = true;
  return ret == 0;  // submitted on this rank (1: another rank runs it)
}

void Call::submit(bool synchronous) {
  settle();
  // A first `?` call sized from its model of functions: here when nothing was made from the
  // equal blocks (by-value arguments, a codelet chosen for their extents).
  if (sizing_pending_ && args_.empty() && !codelet_set_) size_from_models();
  Distributed* layer = distributed();
  if (layer != nullptr) layer->call_begins(*this);  // the ranks compare their calls
  std::vector<starpu_task*> to_wait;  // synchronous calls with nothing registered for them
  bool registered = false;            // raw operands, registered for the call or cached
  {
    // The containers' locks, in address order (no deadlock between calls naming the same
    // containers in another order), from taking their handles to submitting the tasks:
    // another thread's host read or call cannot unpartition or re-register them meanwhile.
    SmallVector<Storage*, STARPU_NMAXBUFS> used;
    for (const Operand& op : ops_)
      if (op.container != nullptr) used.push_back(op.container);
    const std::size_t nused = used.size();
    std::sort(used.begin(), used.end(), std::less<Storage*>());
    HeldLocks locks;
    for (std::size_t i = 0; i < nused; ++i) {
      if (i > 0 && used[i] == used[i - 1]) continue;
      std::unique_lock<std::mutex> lock = used[i]->lock();
      locks.held.push_back(lock.mutex());
      lock.release();  // locks unlocks it
    }

    resolve();
    submit_halo_copies();
    submit_reduction_starts();
    // Raw operands (registered for the call, or cached) are waited for by release().
    registered = nused < ops_.size();
    const std::size_t n = blocks();
    bool assessed = false;  // the rule of moves paid for by reuse saw the call's reads
    for (std::size_t b = 0; b < n; ++b) {
      starpu_task* task = make_task(b);
      if (chooser_ != nullptr && n == 1 && nblocks_ == 0 && layer == nullptr) {
        starpu_codelet* chosen = chooser_(chooser_context_, task);  // same buffers and modes
        if (chosen == nullptr) {  // the caller runs the call on its own thread
          task->destroy = 0;      // starpu_task_destroy() frees it (it refuses a detached one)
          unsubmitted_ = task;
          return;  // nothing submitted, no note; raw operands are released by ~Call
        }
        // A variant whose workers cannot hold the call's operands (blocks that fit): the
        // whole codelet instead, on the workers that can (the model measures another time).
        if (!fits_somewhere(chosen)) chosen = codelet_;
        codelet_ = chosen;
        task->cl = codelet_;
      }
      // One task the scheduler places: data its calls keep reading may move ahead of it.
      if (n == 1 && nblocks_ == 0 && layer == nullptr && workers_.empty() && fit_mask_ == nullptr)
        assessed = amortise_moves(task);
      if (synchronous && !registered) task->detach = 0;  // waited for below, then freed
      const bool wait = task->detach == 0;
      if (submit_task(task, b) && wait) to_wait.push_back(task);
    }
    submit_reduction_folds();
    forget_reuse_of_written(assessed);
    if (layer == nullptr) send_written_blocks_home();
    // Where the containers' data will be once these tasks ran (placement-aware dispatch).
    if (nused > 0) {
      const int node = workers_.empty() ? memory_node_of(*codelet_) : -1;
      for (const Operand& op : ops_)  // a reduced Scalar: written by its fold, on a CPU
        if (op.container != nullptr)
          op.container->note_task_locked(
              STARPU_CODELET_GET_MODE(codelet_, op.index),
              op.kind == OperandKind::ContainerReduce && !reduces_in_place(op, n) ? STARPU_MAIN_RAM
                                                                                  : node);
    }
  }
  // Waiting for this rank's tasks, which may wait for other ranks' data: the ranks compare
  // their calls first (Distributed::synchronise).
  if (layer != nullptr && (synchronous || registered)) layer->synchronise(SyncPoint::CallEnd, 0, 0);
  for (starpu_task* task : to_wait) {
    if (starpu_task_wait(task) != 0)  // frees it (destroy is set)
      throw Error(std::string(iface_) + ": starpu_task_wait failed");
  }
  release();  // waits for the tasks and copies raw data back
}

void Call::send_written_blocks_home() {
  // A `?` container written by this call and read on the host after its last call (its
  // last reader is home): its blocks will be gathered home by the next host access, which
  // copies the blocks written on a device only once every block's task ended (StarPU's
  // gather task reads them all). Each such block is fetched home instead as soon as its own
  // task ends, overlapping the other workers' blocks: what the split's model charges
  // (transfer_costs: written data goes on to its next reader). A block pinned to a worker
  // of the host memory is home already.
  for (const Operand& op : ops_) {
    if (!op.auto_split || op.kind != OperandKind::ContainerSplit || op.blocks.size() < 2 ||
        (STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_W) == 0 ||
        op.container->last_reader() != STARPU_MAIN_RAM)
      continue;
    for (std::size_t b = 0; b < op.blocks.size(); ++b) {
      if (b < workers_.size() && workers_[b] >= 0 &&
          starpu_worker_get_memory_node(static_cast<unsigned>(workers_[b])) == STARPU_MAIN_RAM)
        continue;
      starpu_data_handle_t block = op.blocks[b];
      // After the block's writer (sequential consistency), released at once: only the copy
      // home is wanted. A failure leaves the gather to copy it, as without this.
      (void)starpu_data_acquire_on_node_cb_sequential_consistency(
          block, STARPU_MAIN_RAM, STARPU_R,
          [](void* handle) { starpu_data_release(static_cast<starpu_data_handle_t>(handle)); },
          block, 1);
    }
  }
}

void Call::release() noexcept {
  if (Distributed* layer = distributed(); layer != nullptr && layer->diverged()) {
    for (Operand& op : ops_) op.handle = nullptr;  // left registered: see Storage::abandon()
    return;
  }
  if (Distributed* layer = distributed(); layer != nullptr && submitted_) {
    for (Operand& op : ops_)  // every rank's array gets what a task wrote
      if (op.container == nullptr && op.handle != nullptr &&
          (STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_W) != 0)
        layer->raw_written(op.handle, op.blocks.to_vector());
  }
  for (Operand& op : ops_) {
    if (op.container != nullptr || op.handle == nullptr) continue;
    if (op.kind == OperandKind::RawCached) {  // waits for the tasks, data home, kept registered
      raw_cache_release(std::exchange(op.handle, nullptr));
      continue;
    }
    if (op.kind == OperandKind::RawSplit) {
      std::vector<starpu_data_handle_t> blocks = op.blocks.to_vector();
      if (op.cached) {  // waits for the tasks, data home, gathered; registration and plan kept
        raw_cache_release_blocks(std::exchange(op.handle, nullptr), blocks);
        continue;
      }
      end_raw_split_for_call(op.handle, blocks);  // registered for this call: gathered, home
    }
    starpu_data_unregister(op.handle);
    op.handle = nullptr;
  }
}

}  // namespace peppher::detail
