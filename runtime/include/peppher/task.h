// What generated entry wrappers use to turn one component call into one StarPU task:
// argument packing per task, per-call registration of raw pointers, container handles,
// submission with clear errors. Written for generated code; usable by hand as well.
#pragma once

#include <starpu.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>
#include <omp.h>
#include <sstream>
#include <string>
#include <vector>

#include "peppher/detail/distributed.h"
#include "peppher/error.h"
#include "peppher/detail/trace.h"
#include "peppher/init.h"

namespace peppher {

namespace detail {

/// Throws unless the runtime is running: a component call before PEPPHER_INITIALIZE().
inline void require_running(const char* iface) {
  if (!is_running()) {
    throw Error(std::string(iface) + " called while the runtime is not running " +
                "(call PEPPHER_INITIALIZE() first)");
  }
}

/// The error for a failed starpu_task_submit of interface @p iface (-ENODEV: no worker of
/// this run can execute any enabled variant).
inline Error submit_error(const char* iface, int ret) {
  if (ret == -ENODEV) {
    return Error(std::string(iface) +
                 ": no worker can run any of its variants (no enabled variant for the workers "
                 "this run has: " + std::to_string(starpu_cpu_worker_get_count()) + " CPU, " +
                 std::to_string(starpu_cuda_worker_get_count()) + " CUDA, " +
                 std::to_string(starpu_opencl_worker_get_count()) + " OpenCL)");
  }
  return Error(std::string(iface) + ": starpu_task_submit failed (" + std::to_string(ret) + ")");
}

/// Submits @p task, through the distributed layer when there is one (StarPU-MPI decides
/// which rank executes it); 0 when submitted here, 1 when another rank executes it (the
/// task is gone), else StarPU's error (the task is still the caller's).
inline int submit_task(starpu_task* task) {
  Distributed* layer = distributed();
  return layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
}

/// Raw memory registered for one call: placed by the distributed layer when there is one.
inline void raw_registered(starpu_data_handle_t h,
                           const std::vector<starpu_data_handle_t>& blocks = {}) {
  if (Distributed* layer = distributed()) layer->raw_registered(h, blocks);
}

/// Before unregistering raw memory a task wrote: every rank's array gets the result.
inline void raw_written(starpu_data_handle_t h,
                        const std::vector<starpu_data_handle_t>& blocks = {}) {
  if (Distributed* layer = distributed()) layer->raw_written(h, blocks);
}

/// A raw array of @p count elements registered for one call as a StarPU vector.
inline starpu_data_handle_t register_raw_vector(const void* ptr, size_t count, size_t elem_size) {
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr),
                              static_cast<uint32_t>(count), elem_size);
  return h;
}

/// The rows of a raw row-major array of @p count elements, @p row_width per row
/// (numElements / descRowWidth); throws peppher::Error naming @p iface when they do not divide.
inline size_t raw_rows(const char* iface, size_t count, size_t row_width) {
  if (row_width == 0 || count % row_width != 0) {
    throw Error(std::string(iface) + ": numElements (" + std::to_string(count) +
                ") is not a multiple of descRowWidth (" + std::to_string(row_width) + ")");
  }
  return count / row_width;
}

/// A raw row-major array of @p rows x @p row_width elements registered for one call as a
/// StarPU matrix (contiguous rows: ld == row_width).
inline starpu_data_handle_t register_raw_matrix(const void* ptr, size_t rows, size_t row_width,
                                                size_t elem_size) {
  starpu_data_handle_t h;
  starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr),
                              static_cast<uint32_t>(row_width), static_cast<uint32_t>(row_width),
                              static_cast<uint32_t>(rows), elem_size);
  return h;
}

}  // namespace detail

/// @brief Builds and submits one task of a codelet. Raw pointers registered through it are
///        unregistered after submission when the call is synchronous (waiting for the task
///        and copying the data back), or when the task could not be submitted.
/// @attention One builder per call; builders of concurrent calls share nothing.
class TaskBuilder {
 public:
  /// @brief Starts a task of @p codelet for interface @p iface (used in error messages).
  TaskBuilder(starpu_codelet* codelet, const char* iface) : iface_(iface) {
    detail::require_running(iface);
    task_ = starpu_task_create();
    task_->cl = codelet;
  }

  ~TaskBuilder() {
    if (task_ != nullptr) {  // never submitted: free it (and its arguments) ourselves
      task_->destroy = 0;    // starpu_task_destroy refuses auto-destroyed detached tasks
      starpu_task_destroy(task_);
    }
    unregister_temporaries();
  }
  TaskBuilder(const TaskBuilder&) = delete;
  TaskBuilder& operator=(const TaskBuilder&) = delete;

  /// @brief The task's by-value argument block, allocated on first use and owned by the task.
  template <typename Args>
  Args& args() {
    if (task_->cl_arg == nullptr) {
      void* block = std::malloc(sizeof(Args));
      if (block == nullptr) throw std::bad_alloc();
      task_->cl_arg = new (block) Args;
      task_->cl_arg_size = sizeof(Args);
      task_->cl_arg_free = 1;
    }
    return *static_cast<Args*>(task_->cl_arg);
  }

  /// @brief Buffer @p index is a smart container's handle (kept registered by the container).
  template <typename Container>
  void use(int index, const Container& container) {
    task_->handles[index] = container.handle_for_task();
  }

  /// @brief Buffer @p index is a raw array of @p count elements, registered for this call.
  ///        An empty array (count 0) travels as one element of scratch owned by this call:
  ///        StarPU cannot allocate an empty buffer on an OpenCL device. Variants still see
  ///        their own count argument (0).
  void register_vector(int index, const void* ptr, size_t count, size_t elem_size) {
    if (count == 0) {
      empty_.push_back(std::make_unique<unsigned char[]>(elem_size));
      ptr = empty_.back().get();
      count = 1;
    }
    add_temporary(index, detail::register_raw_vector(ptr, count, elem_size));
  }

  /// @brief Buffer @p index is one element (a `T&` parameter), registered for this call.
  void register_variable(int index, const void* ptr, size_t elem_size) {
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr), elem_size);
    add_temporary(index, h);
  }

  /// @brief Buffer @p index is a raw row-major array of @p count elements, @p row_width per
  ///        row, registered for this call as a StarPU matrix.
  void register_matrix(int index, const void* ptr, size_t count, size_t row_width,
                       size_t elem_size) {
    const size_t rows = detail::raw_rows(iface_, count, row_width);
    add_temporary(index, detail::register_raw_matrix(ptr, rows, row_width, elem_size));
  }

  /// @brief Submits the task. With @p synchronous, waits for it and copies raw-pointer
  ///        operands back before returning. Throws peppher::Error when no worker can run
  ///        any variant of the codelet, leaking nothing.
  void submit(bool synchronous) {
    if (synchronous && temporaries_ == 0) task_->synchronous = 1;
    for (int i = 0; i < temporaries_; ++i) {
      written_[i] = (STARPU_CODELET_GET_MODE(task_->cl, temporary_index_[i]) & STARPU_W) != 0;
    }
    detail::trace_task(task_, iface_);
    int ret = detail::submit_task(task_);
    if (ret < 0) throw detail::submit_error(iface_, ret);
    task_ = nullptr;  // StarPU owns and destroys it now
    for (int i = 0; i < temporaries_; ++i) {
      if (written_[i]) detail::raw_written(temporary_[i]);
    }
    unregister_temporaries();  // waits for the task and copies the data back
  }

 private:
  void add_temporary(int index, starpu_data_handle_t h) {
    detail::raw_registered(h);
    task_->handles[index] = h;
    temporary_index_[temporaries_] = index;
    temporary_[temporaries_++] = h;
  }

  void unregister_temporaries() {
    for (int i = 0; i < temporaries_; ++i) starpu_data_unregister(temporary_[i]);
    temporaries_ = 0;
  }

  const char* iface_;
  starpu_task* task_ = nullptr;
  starpu_data_handle_t temporary_[STARPU_NMAXBUFS];
  int temporary_index_[STARPU_NMAXBUFS];
  bool written_[STARPU_NMAXBUFS];
  int temporaries_ = 0;
  std::vector<std::unique_ptr<unsigned char[]>> empty_;  // stand-ins for empty arrays
};

/// @brief The entry wrapper's test of a call whose every variant has constraints: records,
///        per variant, whether its kind has workers and which predicates fail, and throws a
///        peppher::Error naming the interface, the values and each variant's reason when no
///        variant accepts the call. Cheap while some variant accepts (no allocation).
/// @attention One per call, on the calling thread.
class VariantCheck {
 public:
  explicit VariantCheck(const char* iface) : iface_(iface) {}

  /// @brief The next variant, @p name on @p backend, with @p workers workers of its kind.
  void variant(const char* name, const char* backend, unsigned workers) {
    accepted_ = accepted_ || current_;
    current_ = workers > 0;
    record({name, backend, workers, nullptr, true});
  }

  /// @brief A predicate of the current variant, @p label, held (or not) for this call.
  void predicate(const char* label, bool holds) {
    current_ = current_ && holds;
    record({nullptr, nullptr, 0, label, holds});
  }

  /// @brief Whether some variant accepts the call on this run's workers.
  bool accepted() const { return accepted_ || current_; }

  /// @brief A value the predicates read, for the message.
  template <typename T>
  void value(const char* label, const T& v) {
    std::ostringstream s;
    s << v;
    values_ += (values_.empty() ? "" : ", ") + std::string(label) + " = " + s.str();
  }

  /// @brief Throws the peppher::Error that explains why no variant accepts the call.
  [[noreturn]] void fail() const {
    std::string why;
    bool first_reason = true;
    for (int i = 0; i < count_; ++i) {
      const Entry& e = entries_[i];
      if (e.variant != nullptr) {
        why += std::string(why.empty() ? "" : "; ") + e.variant + " (" + e.backend + ")";
        first_reason = true;
        if (e.workers == 0) {
          why += std::string(": no ") + e.backend + " worker in this run";
          first_reason = false;
        }
      } else if (!e.holds) {
        why += std::string(first_reason ? ": " : ", ") + e.label + " is false";
        first_reason = false;
      }
    }
    std::string values = values_.empty() ? "" : " (" + values_ + ")";
    throw Error(std::string(iface_) + ": no variant accepts this call" + values + ": " + why);
  }

 private:
  struct Entry {
    const char* variant;
    const char* backend;
    unsigned workers;
    const char* label;
    bool holds;
  };
  void record(const Entry& e) {
    if (count_ < kMaxEntries) entries_[count_++] = e;
  }
  static constexpr int kMaxEntries = 64;
  const char* iface_;
  bool accepted_ = false;
  bool current_ = false;
  Entry entries_[kMaxEntries];
  int count_ = 0;
  std::string values_;
};

/// @brief A StarPU performance model of @p type under the stable @p symbol.
inline starpu_perfmodel make_perf_model(starpu_perfmodel_type type, const char* symbol) {
  starpu_perfmodel model{};  // zero-initialised, as a static C declaration would be
  model.type = type;
  model.symbol = symbol;
  return model;
}

/// @brief A StarPU per-architecture performance model whose @p cost function gives the
///        expected microseconds of each (architecture, implementation) pair: the variants'
///        prediction functions or the trained table, generated per interface.
inline starpu_perfmodel make_cost_model(const char* symbol,
                                        double (*cost)(starpu_task*, starpu_perfmodel_arch*, unsigned)) {
  starpu_perfmodel model{};
  model.type = STARPU_PER_ARCH;
  model.symbol = symbol;
  model.arch_cost_function = cost;
  return model;
}

/// @brief In an OPENMP variant's backend wrapper: run OpenMP with as many threads as the
///        (combined) worker executing the task has cores.
inline void use_combined_worker_threads() {
  int size = starpu_combined_worker_get_size();
  omp_set_num_threads(size > 0 ? size : 1);
}

}  // namespace peppher
