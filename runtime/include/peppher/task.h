// What generated entry wrappers use to turn one component call into one StarPU task
// (TaskBuilder, a typed front end of the call core detail::Call), the constraint check of a
// call (VariantCheck) and the performance-model helpers. Written for generated code; usable
// by hand as well.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "peppher/detail/call.h"
#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/inline_call.h"

namespace peppher {

/// @brief Builds and submits one task of a codelet (a front end of detail::Call). Raw
///        pointers given to it are back home when the call ends: submit() waits for the
///        task and copies the data back (raw vectors stay registered in the registration
///        cache, their device copies invalidated), so such calls are synchronous.
/// @attention One builder per call, used by one thread; builders of concurrent calls share
///            nothing but the containers they name (see runtime/README.md, threads).
class TaskBuilder : private detail::Call {
 public:
  /// @brief Starts a task of @p codelet for interface @p iface (used in error messages);
  ///        throws peppher::Error when the runtime is not running.
  TaskBuilder(starpu_codelet* codelet, const char* iface) : Call(codelet, iface) {}

  /// @brief The task's by-value argument block, allocated on first use and owned by the
  ///        task once submitted (StarPU frees it with free(): Args must be trivially copyable).
  template <typename Args>
  Args& args() {
    static_assert(std::is_trivially_copyable_v<Args>,
                  "by-value arguments travel in a malloc'd block that StarPU frees with free(): "
                  "their type must be trivially copyable");
    if (void* p = Call::args(0)) return *static_cast<Args*>(p);
    return *new (make_args(0, sizeof(Args))) Args;
  }

  /// @brief Buffer @p index is a smart container's handle (kept registered by the container).
  template <typename Container>
  void use(int index, const Container& container) {
    add_container(index, container.storage());
  }

  /// @brief Buffer @p index is a raw array of @p count elements (registered once per pointer
  ///        and size: the registration cache, detail/raw_cache.h).
  ///        An empty array (count 0) travels as one element of scratch owned by this call:
  ///        StarPU cannot allocate an empty buffer on an OpenCL device. Variants still see
  ///        their own count argument (0).
  void register_vector(int index, const void* ptr, std::size_t count, std::size_t elem_size) {
    add_raw_vector(index, ptr, count, elem_size);
  }
  /// @brief Buffer @p index is one element (a `T&` parameter), registered for this call.
  void register_variable(int index, const void* ptr, std::size_t elem_size) {
    add_raw_variable(index, ptr, elem_size);
  }
  /// @brief Buffer @p index is a raw row-major array of @p count elements, @p row_width per
  ///        row, registered for this call as a StarPU matrix.
  void register_matrix(int index, const void* ptr, std::size_t count, std::size_t row_width,
                       std::size_t elem_size) {
    add_raw_matrix(index, ptr, count, row_width, elem_size);
  }

  /// @brief Submits the task. With @p synchronous, waits for it (raw-pointer operands are
  ///        always waited for and copied back). Throws peppher::Error when no worker can run
  ///        any variant of the codelet, leaking nothing.
  void submit(bool synchronous) { Call::submit(synchronous); }

  /// @brief Lets @p choose (`starpu_codelet*(starpu_task*)`, alive until submit() returns)
  ///        replace the codelet once the task is built (detail::Call::set_codelet_chooser).
  template <typename Choose>
  void choose_codelet(Choose& choose) {
    set_codelet_chooser(
        [](void* f, starpu_task* task) -> starpu_codelet* {
          return (*static_cast<Choose*>(f))(task);
        },
        &choose);
  }

  /// @brief The task submit() built but kept back because the chooser returned nullptr (the
  ///        call runs on the calling thread), or nullptr; the caller owns it then.
  starpu_task* take_unsubmitted_task() noexcept { return Call::take_unsubmitted_task(); }

  /// @brief The call core, for extensions that need its operands (tracing, MPI).
  const detail::Call& call() const noexcept { return *this; }
};

namespace detail {
// VariantCheck::value()'s text of a value, as std::ostringstream writes it: out of line
// (call/variant_check.cpp), so that no source including this header parses <sstream>.
std::string value_text(bool v);
std::string value_text(char v);
std::string value_text(signed char v);
std::string value_text(unsigned char v);
std::string value_text(long long v);
std::string value_text(unsigned long long v);
std::string value_text(float v);
std::string value_text(double v);
std::string value_text(long double v);

// An std::ostringstream made out of line, for values of the program's own types.
class ValueText {
 public:
  ValueText();
  ~ValueText();
  ValueText(const ValueText&) = delete;
  ValueText& operator=(const ValueText&) = delete;
  std::ostream& stream();
  std::string str() const;

 private:
  std::unique_ptr<std::ostringstream> text_;
};
}  // namespace detail

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

  /// @brief A value the predicates read, for the message, written as std::ostringstream
  ///        writes it (a number, a character; a type of the program's with its operator<<).
  template <typename T>
  void value(const char* label, const T& v) {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, char> ||
                  std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char> ||
                  std::is_floating_point_v<T>) {
      add_value(label, detail::value_text(v));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      add_value(label, detail::value_text(static_cast<long long>(v)));
    } else if constexpr (std::is_integral_v<T>) {
      add_value(label, detail::value_text(static_cast<unsigned long long>(v)));
    } else if constexpr (std::is_enum_v<T> && std::is_convertible_v<T, long long>) {
      value(label, +v);  // an unscoped enum: its promoted value, as a stream writes it
    } else {
      detail::ValueText text;
      text.stream() << v;
      add_value(label, text.str());
    }
  }

  /// @brief Throws the peppher::Error that explains why no variant accepts the call.
  [[noreturn]] void fail() const;

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
  void add_value(const char* label, const std::string& text);
  static constexpr int kMaxEntries = 64;
  const char* iface_;
  bool accepted_ = false;
  bool current_ = false;
  Entry entries_[kMaxEntries];
  int count_ = 0;
  std::string values_;
};

/// @brief A StarPU performance model of @p type under the stable @p symbol; @p footprint,
///        when given, keys its history instead of the data sizes alone (an interface's
///        context parameters, FORMAT.md `range`).
inline starpu_perfmodel make_perf_model(starpu_perfmodel_type type, const char* symbol,
                                        uint32_t (*footprint)(starpu_task*) = nullptr) {
  starpu_perfmodel model{};  // zero-initialised, as a static C declaration would be
  model.type = type;
  model.symbol = symbol;
  model.footprint = footprint;
  return model;
}

/// @brief The key under which @p task's performance model keeps its history: the model's
///        footprint function's when it has one, else the data sizes'.
inline uint32_t model_footprint(starpu_task* task) {
  const starpu_perfmodel* model = task->cl != nullptr ? task->cl->model : nullptr;
  return model != nullptr && model->footprint != nullptr ? model->footprint(task)
                                                         : starpu_task_data_footprint(task);
}

/// @brief A StarPU per-architecture performance model whose @p cost function gives the
///        expected microseconds of each (architecture, implementation) pair: the variants'
///        prediction functions or the trained table, generated per interface.
inline starpu_perfmodel make_cost_model(const char* symbol,
                                        double (*cost)(starpu_task*, starpu_perfmodel_arch*,
                                                       unsigned)) {
  starpu_perfmodel model{};
  model.type = STARPU_PER_ARCH;
  model.symbol = symbol;
  model.arch_cost_function = cost;
  return model;
}

/// @brief In an OPENMP variant's backend wrapper, for the variant's call: OpenMP runs with
///        as many threads as the (combined) worker executing the task has cores
///        (omp_set_num_threads), and when a call of 50 ms or more returns, the team's other
///        threads end (omp_pause_resource_all): left to OpenMP, they spin for milliseconds
///        after the variant's last parallel region, on the cores of the combined worker's
///        other members, which StarPU binds there and needs back to end the task (the
///        calling thread got GEMM's 0.2 s result 3-7 ms late in most runs, 0.15 ms with
///        this). Shorter calls keep the team (a new one costs 0.05-0.15 ms on a quiet 2-core
///        machine, milliseconds on a busy one). In the runtime library so that this header
///        does not need <omp.h>.
class OpenMpTeam {
 public:
  OpenMpTeam() noexcept;
  ~OpenMpTeam();
  OpenMpTeam(const OpenMpTeam&) = delete;
  OpenMpTeam& operator=(const OpenMpTeam&) = delete;

 private:
  int size_;
  std::int64_t start_ns_;  // the call's start on std::chrono::steady_clock, in ns
};

/// @brief For an OPENMP variant run on the calling thread (inline_call.h's runs_here): OpenMP
///        runs with as many threads as the run has CPU workers (idle then), and the calling
///        thread's own setting comes back afterwards. The team stays, as in the
///        application's own loop of parallel regions.
class OpenMpHere {
 public:
  OpenMpHere() noexcept;
  ~OpenMpHere();
  OpenMpHere(const OpenMpHere&) = delete;
  OpenMpHere& operator=(const OpenMpHere&) = delete;

 private:
  int previous_;  // the calling thread's omp_get_max_threads() before
};

/// @brief In an OPENMP variant's backend wrapper: the task's data interfaces in its
///        codelet's buffer order, each handle's on the memory node of the worker running
///        the task (where StarPU acquired it), written to @p out (room for @p capacity);
///        returns @p out, or @p buffers where it cannot tell (no current task, more buffers
///        than @p capacity, SCRATCH or REDUX operands, codelet-specific nodes). The array StarPU
///        passes is the submitted task's, while StarPU fills that of the task alias it runs: on a
///        combined worker the function gets the interfaces set at submission, which StarPU 1.4.0
///        to 1.4.9 put in its locking order (handles sorted; operands swapped,
///        starpu-runtime/starpu#78, fixed in 1.4.10) and StarPU 1.3 only for handles with a home
///        node (docs/SELECTION.md).
void** openmp_task_buffers(void** buffers, void** out, std::size_t capacity) noexcept;

}  // namespace peppher
