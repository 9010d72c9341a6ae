// What generated entry wrappers use when a call is partitioned (FORMAT.md `partition`): the
// call's split into blocks, one task per block sharing the unpartitioned operands, and the
// `?` split sized from the interface's performance model (AutoSplit, CHPS-style).
#pragma once

#include <starpu.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/matrix.h"
#include "peppher/partition.h"
#include "peppher/task.h"
#include "peppher/vector.h"

namespace peppher {

/// @brief Sizes of @p n elements (or rows) split into @p nparts blocks by block_range().
inline std::vector<std::size_t> even_sizes(std::size_t n, std::size_t nparts) {
  std::vector<std::size_t> sizes;
  for (std::size_t b = 0; b < nparts; ++b) sizes.push_back(block_range(n, nparts, b).size);
  return sizes;
}

/// @brief A 1-D split: block sizes and, when sized from a performance model, the worker
///        each block is meant for (empty: the scheduler places the blocks).
struct Split {
  std::vector<std::size_t> sizes;
  std::vector<int> workers;
};

class AutoSplit;

namespace detail {
inline std::mutex& auto_split_mutex() {
  static std::mutex m;
  return m;
}
inline std::map<std::string, AutoSplit*>& auto_split_registry() {
  static std::map<std::string, AutoSplit*> r;
  return r;
}
}  // namespace detail

/// @brief The `?` / `auto` split of one interface. Without a calibrated performance model
///        the call is split into one equal block per worker that can run the codelet; once
///        the model (StarPU history, filled by those equal blocks) predicts every worker's
///        time for an equal block, the blocks are sized in proportion to each worker's speed
///        so that all finish at about the same time, and block b is pinned to worker b.
///        A model-sized split is kept for that extent (plans are reused across calls).
/// @attention Thread-safe. Only the first implementation of each backend is consulted.
class AutoSplit {
 public:
  explicit AutoSplit(const char* iface) : iface_(iface) {
    std::lock_guard<std::mutex> lock(detail::auto_split_mutex());
    detail::auto_split_registry()[iface] = this;
  }
  AutoSplit(const AutoSplit&) = delete;
  AutoSplit& operator=(const AutoSplit&) = delete;

  /// @brief The split of @p n elements for @p codelet on this run's workers.
  Split plan(std::size_t n, starpu_codelet* codelet) {
    std::vector<int> workers = capable_workers(codelet);
    if (workers.empty()) workers.push_back(-1);  // submission reports the missing worker
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[n];
    if (e.modelled && e.split.workers == workers) return e.split;
    const std::size_t k = workers.size() < n ? workers.size() : n;
    if (codelet->model != nullptr && e.have_footprint && k == workers.size() && k > 1) {
      std::vector<double> speed;
      double total = 0;
      for (int w : workers) {
        starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
        double t = starpu_perfmodel_history_based_expected_perf(codelet->model, arch, e.footprint);
        if (!(std::isfinite(t) && t > 0)) break;
        speed.push_back(1.0 / t);
        total += 1.0 / t;
      }
      if (speed.size() == workers.size()) {
        e.split = {proportional(n, speed, total), workers};
        e.modelled = true;
        return e.split;
      }
    }
    return {even_sizes(n, k), {}};
  }

  /// @brief Called with the first block's task of an equal split of @p n: its footprint is
  ///        where the model's predictions for equal blocks are found.
  void remember(std::size_t n, std::uint32_t footprint) {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[n];
    e.footprint = footprint;
    e.have_footprint = true;
  }

  /// @brief The model-sized split chosen for @p n elements (empty sizes while the calls are
  ///        still split equally).
  Split modelled_split(std::size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(n);
    return it != entries_.end() && it->second.modelled ? it->second.split : Split{};
  }

  const char* iface() const noexcept { return iface_; }

 private:
  struct Entry {
    Split split;
    std::uint32_t footprint = 0;
    bool have_footprint = false;
    bool modelled = false;
  };

  static bool can_run(const starpu_codelet* cl, starpu_worker_archtype type) {
    switch (type) {
      case STARPU_CPU_WORKER: return cl->cpu_funcs[0] != nullptr;
      case STARPU_OPENCL_WORKER: return cl->opencl_funcs[0] != nullptr;
      case STARPU_CUDA_WORKER: return cl->cuda_funcs[0] != nullptr;
      default: return false;
    }
  }

  static std::vector<int> capable_workers(const starpu_codelet* cl) {
    std::vector<int> workers;
    const unsigned n = starpu_worker_get_count();  // combined workers have larger ids
    for (unsigned w = 0; w < n; ++w)
      if (can_run(cl, starpu_worker_get_type(static_cast<int>(w)))) workers.push_back(static_cast<int>(w));
    return workers;
  }

  // n split in proportion to speed, every block at least one element, summing to n.
  static std::vector<std::size_t> proportional(std::size_t n, const std::vector<double>& speed,
                                               double total) {
    std::vector<std::size_t> sizes;
    std::size_t given = 0;
    for (std::size_t i = 0; i < speed.size(); ++i) {
      const std::size_t left = speed.size() - i - 1;  // blocks still to size
      std::size_t s = i + 1 == speed.size()
                          ? n - given
                          : static_cast<std::size_t>(std::llround(n * speed[i] / total));
      if (s < 1) s = 1;
      if (given + s + left > n) s = n - given - left;
      sizes.push_back(s);
      given += s;
    }
    return sizes;
  }

  const char* iface_;
  std::mutex mutex_;
  std::map<std::size_t, Entry> entries_;
};

/// @brief The model-sized `?` split interface @p iface chose for @p n elements (empty sizes
///        while it still splits equally or has no `?` operand): for tests and benchmarks.
inline Split auto_split_of(const std::string& iface, std::size_t n) {
  AutoSplit* a = nullptr;
  {
    std::lock_guard<std::mutex> lock(detail::auto_split_mutex());
    auto it = detail::auto_split_registry().find(iface);
    if (it != detail::auto_split_registry().end()) a = it->second;
  }
  return a != nullptr ? a->modelled_split(n) : Split{};
}

/// @brief One partitioned call: every partitioned operand is split into the same number of
///        blocks, operands that are not partitioned are shared whole (read-only), and submit()
///        submits one task per block, asynchronously. Raw pointers are registered for the call
///        (partitioned ones split too); submit() then waits, gathers and unregisters them.
/// @attention One object per call; objects of concurrent calls share nothing.
class PartitionedCall {
 public:
  PartitionedCall(starpu_codelet* codelet, const char* iface) : codelet_(codelet), iface_(iface) {
    detail::require_running(iface);
  }
  ~PartitionedCall() {
    for (void* a : args_) std::free(a);
    finish_temporaries();
  }
  PartitionedCall(const PartitionedCall&) = delete;
  PartitionedCall& operator=(const PartitionedCall&) = delete;

  /// @brief Buffer @p index is Vector @p v in blocks of at most @p block elements.
  template <typename T>
  void split(int index, const char* name, const Vector<T>& v, long long block) {
    Op& op = add_split(index, fixed_sizes(name, v.size(), block));
    op.blocks = v.partition_blocks(op.sizes.size());
  }
  /// @brief Buffer @p index is Matrix @p m in blocks of at most @p block rows.
  template <typename T>
  void split(int index, const char* name, const Matrix<T>& m, long long block) {
    Op& op = add_split(index, fixed_sizes(name, m.rows(), block));
    op.blocks = m.partition_rows(op.sizes.size());
  }
  /// @brief Buffer @p index is Matrix @p m in 2-D blocks of at most @p rows x @p cols,
  ///        in row-major block order.
  template <typename T>
  void split_2d(int index, const char* name, const Matrix<T>& m, long long rows, long long cols) {
    const std::size_t rp = count_for(name, m.rows(), rows);
    const std::size_t cp = count_for(name, m.cols(), cols);
    std::vector<std::size_t> sizes, offsets;
    for (std::size_t i = 0; i < rp; ++i)
      for (std::size_t j = 0; j < cp; ++j) {
        sizes.push_back(block_range(m.rows(), rp, i).size * block_range(m.cols(), cp, j).size);
        offsets.push_back(block_range(m.rows(), rp, i).offset);
      }
    Op& op = add_split(index, check_count(name, sizes), offsets);
    op.blocks = m.partition_blocks(rp, cp);
  }
  /// @brief Buffer @p index is a raw array of @p count elements, registered for this call
  ///        and split into blocks of at most @p block elements.
  void split_raw(int index, const char* name, const void* ptr, std::size_t count,
                 std::size_t elem_size, long long block) {
    Op& op = add_split(index, fixed_sizes(name, count, block));
    split_registered(op, detail::register_raw_vector(ptr, count, elem_size), starpu_vector_filter_list);
  }
  /// @brief Buffer @p index is a raw row-major array of @p count elements, @p row_width per
  ///        row (descRowWidth), registered for this call as a StarPU matrix and split into
  ///        blocks of at most @p block rows: each block is its rows, contiguous.
  void split_raw_rows(int index, const char* name, const void* ptr, std::size_t count,
                      std::size_t row_width, std::size_t elem_size, long long block) {
    const std::size_t rows = detail::raw_rows(iface_, count, row_width);
    Op& op = add_split(index, fixed_sizes(name, rows, block));
    split_registered(op, detail::register_raw_matrix(ptr, rows, row_width, elem_size),
                     detail::matrix_filter_row_list);
  }
  /// @brief `?` on a raw row-major array: row blocks as @p a chooses.
  void split_raw_rows_auto(int index, const char* name, const void* ptr, std::size_t count,
                           std::size_t row_width, std::size_t elem_size, AutoSplit& a) {
    const std::size_t rows = detail::raw_rows(iface_, count, row_width);
    Op& op = add_split(index, auto_sizes(name, rows, a));
    split_registered(op, detail::register_raw_matrix(ptr, rows, row_width, elem_size),
                     detail::matrix_filter_row_list);
  }
  /// @brief `?` on a Vector: the split @p a chooses for this call.
  template <typename T>
  void split_auto(int index, const char* name, const Vector<T>& v, AutoSplit& a) {
    Op& op = add_split(index, auto_sizes(name, v.size(), a));
    op.blocks = is_even(op) ? v.partition_blocks(op.sizes.size()) : v.partition_sizes(op.sizes);
  }
  /// @brief `?` on a Matrix: row blocks as @p a chooses.
  template <typename T>
  void split_auto(int index, const char* name, const Matrix<T>& m, AutoSplit& a) {
    Op& op = add_split(index, auto_sizes(name, m.rows(), a));
    op.blocks = is_even(op) ? m.partition_rows(op.sizes.size()) : m.partition_row_sizes(op.sizes);
  }
  /// @brief `?` on a raw array of @p count elements.
  void split_raw_auto(int index, const char* name, const void* ptr, std::size_t count,
                      std::size_t elem_size, AutoSplit& a) {
    Op& op = add_split(index, auto_sizes(name, count, a));
    split_registered(op, detail::register_raw_vector(ptr, count, elem_size), starpu_vector_filter_list);
  }

  /// @brief Buffer @p index is a container shared whole by every block's task.
  template <typename Container>
  void use(int index, const Container& c) {
    add_shared(index, c.handle_for_task());
  }
  /// @brief Buffer @p index is a raw array shared whole, registered for this call.
  void register_vector(int index, const void* ptr, std::size_t count, std::size_t elem_size) {
    starpu_data_handle_t h = detail::register_raw_vector(ptr, count, elem_size);
    detail::raw_registered(h);
    temporaries_.push_back({h, false, index});
    add_shared(index, h);
  }
  /// @brief Buffer @p index is a raw row-major array shared whole, as a StarPU matrix.
  void register_matrix(int index, const void* ptr, std::size_t count, std::size_t row_width,
                       std::size_t elem_size) {
    const std::size_t rows = detail::raw_rows(iface_, count, row_width);
    starpu_data_handle_t h = detail::register_raw_matrix(ptr, rows, row_width, elem_size);
    detail::raw_registered(h);
    temporaries_.push_back({h, false, index});
    add_shared(index, h);
  }
  /// @brief Buffer @p index is one element (a `const T&`-like read operand) shared whole.
  void register_variable(int index, const void* ptr, std::size_t elem_size) {
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr), elem_size);
    detail::raw_registered(h);
    temporaries_.push_back({h, false, index});
    add_shared(index, h);
  }

  /// @brief Number of blocks (tasks) of the call; known after the first split.
  std::size_t blocks() const noexcept { return nblocks_; }
  /// @brief Elements (rows for a row-split matrix) of block @p b of buffer @p index.
  std::size_t block_size(std::size_t b, int index) const { return find(index).sizes.at(b); }
  /// @brief First element (row) of block @p b of buffer @p index in the whole operand.
  std::size_t block_offset(std::size_t b, int index) const { return find(index).offsets.at(b); }

  /// @brief Block @p b's by-value argument block, owned by its task once submitted.
  template <typename Args>
  Args& args(std::size_t b) {
    if (args_.size() != nblocks_) args_.assign(nblocks_, nullptr);
    if (args_.at(b) == nullptr) {
      void* block = std::malloc(sizeof(Args));
      if (block == nullptr) throw std::bad_alloc();
      args_[b] = new (block) Args;
      arg_size_ = sizeof(Args);
    }
    return *static_cast<Args*>(args_[b]);
  }

  /// @brief Submits one task per block. Raw-pointer operands are then gathered (partitioned
  ///        ones), copied back and unregistered, which waits for the tasks; containers let the
  ///        call return at once. Throws peppher::Error when no worker can run the codelet.
  void submit() {
    if (nblocks_ == 0) throw Error(std::string(iface_) + ": partitioned call without blocks");
    for (std::size_t b = 0; b < nblocks_; ++b) {
      starpu_task* task = starpu_task_create();
      task->cl = codelet_;
      for (const Op& op : ops_) task->handles[op.index] = op.blocks.empty() ? op.shared : op.blocks[b];
      if (b < args_.size() && args_[b] != nullptr) {
        task->cl_arg = args_[b];
        task->cl_arg_size = arg_size_;
        task->cl_arg_free = 1;
        args_[b] = nullptr;
      }
      if (!workers_.empty() && workers_[b] >= 0) {
        task->execute_on_a_specific_worker = 1;
        task->workerid = static_cast<unsigned>(workers_[b]);
      }
      if (b == 0 && auto_ != nullptr && workers_.empty() && codelet_->model != nullptr)
        auto_->remember(auto_extent_, starpu_task_data_footprint(task));
      detail::trace_task(task, iface_, static_cast<int>(b));
      const int ret = detail::submit_task(task);
      if (ret < 0) {
        task->destroy = 0;
        starpu_task_destroy(task);
        throw detail::submit_error(iface_, ret);
      }
    }
    submitted_ = true;
    finish_temporaries();  // waits for the tasks and copies raw data back
  }

 private:
  struct Op {
    int index = 0;
    starpu_data_handle_t shared = nullptr;
    std::vector<starpu_data_handle_t> blocks;
    std::vector<std::size_t> sizes, offsets;
  };
  struct Temporary {
    starpu_data_handle_t handle;
    bool partitioned;
    int index;  // codelet buffer
  };

  static std::vector<std::size_t> offsets_of(const std::vector<std::size_t>& sizes) {
    std::vector<std::size_t> offsets;
    std::size_t at = 0;
    for (std::size_t s : sizes) {
      offsets.push_back(at);
      at += s;
    }
    return offsets;
  }

  std::size_t count_for(const char* name, std::size_t n, long long block) const {
    if (block <= 0)
      throw Error(std::string(iface_) + ": the partition of '" + name + "' gives blocks of " +
                  std::to_string(block) + " elements; it must be positive");
    if (n == 0) throw Error(std::string(iface_) + ": '" + name + "' is empty and cannot be split");
    const auto b = static_cast<std::size_t>(block);
    return (n + b - 1) / b;
  }

  std::vector<std::size_t> check_count(const char* name, std::vector<std::size_t> sizes) {
    if (nblocks_ != 0 && sizes.size() != nblocks_)
      throw Error(std::string(iface_) + ": '" + name + "' splits into " +
                  std::to_string(sizes.size()) + " blocks but '" + first_ + "' into " +
                  std::to_string(nblocks_) + "; every partitioned operand of a call must split "
                  "into the same number of blocks");
    if (nblocks_ == 0) {
      nblocks_ = sizes.size();
      first_ = name;
    }
    return sizes;
  }

  std::vector<std::size_t> fixed_sizes(const char* name, std::size_t n, long long block) {
    return check_count(name, even_sizes(n, count_for(name, n, block)));
  }

  std::vector<std::size_t> auto_sizes(const char* name, std::size_t n, AutoSplit& a) {
    if (auto_ == nullptr) {
      if (n == 0) throw Error(std::string(iface_) + ": '" + name + "' is empty and cannot be split");
      Split s = a.plan(n, codelet_);
      auto_ = &a;
      auto_extent_ = n;
      auto_sizes_ = s.sizes;
      workers_ = s.workers;
    } else if (n != auto_extent_) {
      throw Error(std::string(iface_) + ": '" + name + "' has " + std::to_string(n) +
                  " elements (or rows) but '" + first_ + "' has " + std::to_string(auto_extent_) +
                  "; operands partitioned with '?' must have the same extent");
    }
    return check_count(name, auto_sizes_);
  }

  static bool is_even(const Op& op) {
    std::size_t n = 0;
    for (std::size_t s : op.sizes) n += s;
    return op.sizes == even_sizes(n, op.sizes.size());
  }

  Op& add_split(int index, std::vector<std::size_t> sizes, std::vector<std::size_t> offsets = {}) {
    Op op;
    op.index = index;
    op.offsets = offsets.empty() ? offsets_of(sizes) : std::move(offsets);
    op.sizes = std::move(sizes);
    ops_.push_back(std::move(op));
    return ops_.back();
  }

  void add_shared(int index, starpu_data_handle_t h) {
    Op op;
    op.index = index;
    op.shared = h;
    ops_.push_back(std::move(op));
  }

  // Partitions @p h, a raw operand registered for this call, into the blocks of op.sizes
  // with @p filter (a list filter: one child per size) and keeps it to gather at the end.
  void split_registered(Op& op, starpu_data_handle_t h,
                        void (*filter)(void*, void*, starpu_data_filter*, unsigned, unsigned)) {
    std::vector<uint32_t> sizes(op.sizes.begin(), op.sizes.end());
    starpu_data_filter f{};
    f.filter_func = filter;
    f.nchildren = static_cast<unsigned>(sizes.size());
    f.filter_arg_ptr = sizes.data();
    starpu_data_partition(h, &f);  // fresh handle: no task uses it yet, returns at once
    temporaries_.push_back({h, true, op.index});
    for (unsigned i = 0; i < f.nchildren; ++i) op.blocks.push_back(starpu_data_get_sub_data(h, 1, i));
    detail::raw_registered(h, op.blocks);
  }

  const Op& find(int index) const {
    for (const Op& op : ops_)
      if (op.index == index) return op;
    throw Error(std::string(iface_) + ": no operand at buffer " + std::to_string(index));
  }

  void finish_temporaries() noexcept {
    for (const Temporary& t : temporaries_) {
      if (submitted_ && (STARPU_CODELET_GET_MODE(codelet_, t.index) & STARPU_W) != 0)
        detail::raw_written(t.handle, t.partitioned ? find(t.index).blocks
                                                    : std::vector<starpu_data_handle_t>{});
    }
    for (const Temporary& t : temporaries_) {
      if (t.partitioned) starpu_data_unpartition(t.handle, STARPU_MAIN_RAM);
      starpu_data_unregister(t.handle);
    }
    temporaries_.clear();
  }

  starpu_codelet* codelet_;
  const char* iface_;
  std::vector<Op> ops_;
  std::vector<Temporary> temporaries_;
  std::vector<void*> args_;
  std::size_t arg_size_ = 0;
  std::size_t nblocks_ = 0;
  std::string first_;
  AutoSplit* auto_ = nullptr;
  std::size_t auto_extent_ = 0;
  std::vector<std::size_t> auto_sizes_;
  std::vector<int> workers_;
  bool submitted_ = false;
};

}  // namespace peppher
