// peppher::Scalar<T>: one value as a smart container, registered lazily as a StarPU
// variable handle so a component can produce it on a device and the host fetches it once.
#pragma once

#include <type_traits>

#include "peppher/detail/storage.h"
#include "peppher/error.h"

namespace peppher {

/// @brief A single trivially copyable T. get()/conversion are host reads, set()/assignment
///        host writes (same coherence rules as Vector<T>).
/// @attention get() after a component call blocks until the tasks writing it finished;
///            destruction waits for pending tasks. Threads (runtime/README.md): like std::vector,
///            concurrent reads from several threads are safe (const access, host_read(), copies,
///            component calls that only read it, whole or partitioned); anything that writes
///            it (non-const access, host_write(), resize, assignment, destruction, a call
///            writing it) needs exclusive use.
template <typename T>
class Scalar {
  static_assert(std::is_trivially_copyable_v<T>, "peppher::Scalar<T> needs a trivially copyable T");

 public:
  using value_type = T;

  /// @brief A value-initialized scalar.
  Scalar() : storage_(shape()) { set_raw(T()); }
  /// @brief A scalar holding @p value.
  Scalar(const T& value) : storage_(shape()) { set_raw(value); }  // NOLINT: implicit on purpose
  /// @brief Deep copy; waits for tasks still writing @p other.
  Scalar(const Scalar& other) : storage_(other.storage_.clone()) {}
  Scalar(Scalar&& other) noexcept = default;
  Scalar& operator=(const Scalar& other) {
    if (this != &other) set(other.get());
    return *this;
  }
  Scalar& operator=(Scalar&& other) noexcept = default;
  ~Scalar() = default;

  /// @brief Non-owning view of the value at @p ptr (inside variants): no coherence work.
  static Scalar view(T* ptr) noexcept { return Scalar(detail::Storage::ViewOf{}, ptr); }

  /// @brief Host read of the value.
  T get() const {
    check_alive();
    storage_.ensure_read();
    return *static_cast<const T*>(storage_.data());
  }
  /// @brief Host write of @p value.
  void set(const T& value) {
    check_alive();
    storage_.ensure_write();
    set_raw(value);
  }
  /// @brief Host read of the value.
  operator T() const { return get(); }
  /// @brief Host write of @p value.
  Scalar& operator=(const T& value) {
    set(value);
    return *this;
  }
  /// @brief Host read access by pointer (valid until the next component call).
  const T* host_read() const {
    check_alive();
    storage_.ensure_read();
    return static_cast<const T*>(storage_.data());
  }
  /// @brief Host read-write access by pointer (valid until the next component call).
  T* host_write() {
    check_alive();
    storage_.ensure_write();
    return static_cast<T*>(storage_.data());
  }

  /// @brief For generated code: registers lazily (one StarPU variable handle for the
  ///        scalar's lifetime), ends any host access phase, returns the handle.
  /// @attention Throws peppher::Error for a view or when the runtime is not running.
  starpu_data_handle_t handle_for_task() const { return storage_.handle_for_task(); }
  /// @brief For the runtime's call core (detail::Call, behind TaskBuilder and
  ///        PartitionedCall): the type-erased storage, whose handle a call takes at submit.
  detail::Storage& storage() const noexcept { return storage_; }
  bool registered() const noexcept { return storage_.registered(); }
  bool is_view() const noexcept { return storage_.is_view(); }

 private:
  Scalar(detail::Storage::ViewOf view, T* ptr) noexcept : storage_(view, ptr, shape()) {}
  static detail::Shape shape() noexcept { return {detail::Layout::Variable, sizeof(T), 1, 1, 1}; }
  void check_alive() const {
    if (storage_.data() == nullptr) throw Error("use of a moved-from Scalar");
  }
  void set_raw(const T& value) { *static_cast<T*>(storage_.data()) = value; }

  mutable detail::Storage storage_;
};

}  // namespace peppher
