// peppher::Vector<T>: an STL-like 1-D smart container. Plain memory without the runtime;
// with it, one lazily registered StarPU vector handle kept until destruction.
#pragma once

#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "peppher/detail/checks.h"
#include "peppher/detail/equal.h"
#include "peppher/detail/halo.h"
#include "peppher/detail/storage.h"
#include "peppher/distribution.h"
#include "peppher/element_ref.h"
#include "peppher/error.h"

namespace peppher {

/// @brief A 1-D array of trivially copyable T whose data StarPU can move between memories.
///
/// Host access semantics (coherence happens once per phase, never per element):
/// - non-const operator[] / at() return an ElementRef proxy: reading it is a host read
///   (STARPU_R acquisition, kept until the next component call), writing it a host write
///   (STARPU_RW: device copies are invalidated);
/// - const operator[], const data(), cbegin()/cend() and host_read() are host reads;
/// - non-const data(), begin()/end() and host_write() are host writes (read-write access).
/// Raw pointers and iterators stay valid until the next component call (handle_for_task)
/// or resize, as std::vector iterators stay valid until a reallocation.
/// @attention The first host access after a component call blocks until the tasks using
///            the data finished (reads wait for writers only). Copy waits for pending
///            writers; destruction waits for pending tasks. Threads (runtime/README.md): like
///            std::vector, concurrent reads from several threads are safe (const access,
///            host_read(), copies, component calls that only read it, whole or partitioned);
///            anything that writes it (non-const access, host_write(), resize, assignment,
///            destruction, a call writing it) needs exclusive use.
template <typename T>
class Vector {
  static_assert(std::is_trivially_copyable_v<T>, "peppher::Vector<T> needs a trivially copyable T");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using reference = ElementRef<T>;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  /// @brief Empty vector.
  Vector() = default;
  /// @brief @p n value-initialized elements.
  explicit Vector(size_type n) : storage_(shape(n)) { value_init(0); }
  /// @brief @p n zero elements created distributed (`Vector<double> v(n,
  ///        peppher::distributed)`): no host memory is allocated now. The first partitioned
  ///        call creates each block where its task runs (under StarPU-MPI: only on the
  ///        block's rank, zero-filled there; a call that writes the blocks, e.g. an init
  ///        kernel, moves no data), and later calls with the same split keep them there. An
  ///        element read fetches only the block holding it (every rank gets that block); any
  ///        other host access, a whole-data call or a call with another split materialises
  ///        the whole on every rank, after which the vector is an ordinary one. A copy is an
  ///        ordinary vector. In one process (no mpirun) the same holds with one rank.
  /// @attention Each block is zero-filled by a CPU task: StarPU needs a CPU worker (else the
  ///            first partitioned call throws peppher::Error). A reference returned by an
  ///            element read stays valid until the next component call, resize or write.
  ///            Threads: as for any vector, except that a call materialising it (a
  ///            whole-data call or another split) needs exclusive use, as a write does.
  Vector(size_type n, DistributedTag) : storage_(shape(n), detail::Storage::Deferred{}) {
    static_assert(std::is_trivially_default_constructible_v<T>,
                  "a distributed Vector<T> starts as zero bytes: T must be trivially "
                  "default-constructible");
  }
  /// @brief @p n copies of @p value.
  Vector(size_type n, const T& value) : storage_(shape(n), kFilled) { fill_raw(value); }
  /// @brief The elements of @p init.
  Vector(std::initializer_list<T> init) : storage_(shape(init.size()), kFilled) {
    copy_in(init.begin(), init.size());
  }
  /// @brief A copy of @p values.
  explicit Vector(const std::vector<T>& values) : storage_(shape(values.size()), kFilled) {
    copy_in(values.data(), values.size());
  }
  /// @brief Takes over @p values' elements without copying them (a temporary, or
  ///        `std::move(v)`): calls use that memory in place, and it is freed with the Vector.
  explicit Vector(std::vector<T>&& values)
      : storage_(detail::Storage::adopting(std::move(values), shape(values.size()))) {}
  /// @brief A container over the program's own @p n elements at @p data, used in place (no
  ///        copy), as StarPU's starpu_vector_data_register() does: calls read and write that
  ///        memory, and the Vector's destruction (or peppher::shutdown()) waits for its
  ///        tasks and leaves the results there.
  /// @attention The array must outlive the Vector, and while the Vector lives the program
  ///            accesses it through the Vector only (host_read(), host_write(), elements):
  ///            the current values may be on a device. Such a Vector cannot be resized.
  static Vector borrow(T* data, size_type n) {
    return Vector(detail::Storage(detail::Storage::External{}, data, shape(n), nullptr));
  }
  /// @brief Deep copy; waits for tasks still writing @p other.
  Vector(const Vector& other) : storage_(other.storage_.clone()) {}
  /// @brief Takes over @p other's memory and handle; @p other becomes empty.
  Vector(Vector&& other) noexcept = default;
  /// @brief Deep copy assignment (the old data is released as by the destructor).
  Vector& operator=(const Vector& other) {
    if (this != &other) {
      storage_ = other.storage_.clone();
      halo_ = {};
    }
    return *this;
  }
  /// @brief Move assignment: the old data is released as by the destructor.
  Vector& operator=(Vector&& other) noexcept = default;
  /// @brief Waits for pending tasks using the data, unregisters it and frees the memory.
  ~Vector() = default;

  /// @brief Non-owning view of @p n elements at @p ptr, for use inside variants: no
  ///        coherence work, never registered, never freed.
  static Vector view(T* ptr, size_type n) noexcept {
    return Vector(detail::Storage::ViewOf{}, ptr, shape(n));
  }

  size_type size() const noexcept { return storage_.shape().nx; }
  bool empty() const noexcept { return size() == 0; }

  /// @brief True for a vector created distributed whose whole was not materialised yet
  ///        (see Vector(size_type, DistributedTag)): this rank holds some blocks at most.
  /// @attention Takes the container's lock; safe next to other readers.
  bool is_distributed() const { return storage_.is_distributed(); }
  /// @brief Bytes of this rank's main memory the elements take now: size() * sizeof(T),
  ///        or for a vector still distributed, the blocks StarPU allocated in main memory
  ///        here (its own blocks that ran on a CPU, and blocks fetched for element reads).
  /// @attention Takes the container's lock; safe next to other readers.
  std::size_t host_bytes() const { return storage_.host_bytes(); }

  /// @brief Inside a variant, for an operand with halo="N" (FORMAT.md): how many elements
  ///        of the neighbouring blocks the task may read before element 0 and after the
  ///        last one (N, or 0 at an end of the whole vector; 0 outside halo operands).
  size_type halo_before() const noexcept { return halo_.n[0]; }
  size_type halo_after() const noexcept { return halo_.n[1]; }
  /// @brief Element @p i of the block or of its halo: @p i from -halo_before() to
  ///        size() + halo_after() - 1 (unchecked, like a raw array; host read).
  const T& with_halo(std::ptrdiff_t i) const {
    if (i < 0)
      return static_cast<const T*>(halo_.ptr[0])[static_cast<std::ptrdiff_t>(halo_.n[0]) + i];
    const auto u = static_cast<size_type>(i);
    if (u >= size()) return static_cast<const T*>(halo_.ptr[1])[u - size()];
    return host_read()[u];
  }
  /// @brief For generated backend wrappers: the halo of this block view.
  void set_halo(const detail::Halo& halo) noexcept { halo_ = halo; }

  /// @brief Proxy to element @p i (checked in debug builds).
  reference operator[](size_type i) {
    if constexpr (PEPPHER_INDEX_CHECKS) detail::check_index("Vector::operator[]", i, size());
    return reference(storage_, i);
  }
  /// @brief Host read of element @p i (checked in debug builds).
  const T& operator[](size_type i) const {
    if constexpr (PEPPHER_INDEX_CHECKS) detail::check_index("Vector::operator[]", i, size());
    return storage_.read_element<T>(i);
  }
  /// @brief Checked proxy to element @p i; throws peppher::Error when out of range.
  reference at(size_type i) {
    detail::check_index("Vector::at", i, size());
    return reference(storage_, i);
  }
  /// @brief Checked host read of element @p i; throws peppher::Error when out of range.
  const T& at(size_type i) const {
    detail::check_index("Vector::at", i, size());
    return (*this)[i];
  }
  reference front() { return at(0); }
  reference back() { return at(size() - 1); }
  const T& front() const { return at(0); }
  const T& back() const { return at(size() - 1); }

  /// @brief Host read access to all elements (waits for pending writers).
  const T* host_read() const {
    storage_.ensure_read();
    return static_cast<const T*>(storage_.data());
  }
  /// @brief Host read-write access to all elements (waits for all pending tasks).
  T* host_write() {
    storage_.ensure_write();
    return static_cast<T*>(storage_.data());
  }
  /// @brief Same as host_write(): read-write host access.
  T* data() { return host_write(); }
  /// @brief Same as host_read().
  const T* data() const { return host_read(); }

  iterator begin() { return host_write(); }
  iterator end() { return host_write() + size(); }
  const_iterator begin() const { return host_read(); }
  const_iterator end() const { return host_read() + size(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }

  /// @brief Resizes to @p n elements, keeping the first min(size, n) ones; new ones are
  ///        value-initialized. Reallocates, so a registered vector is unregistered first.
  /// @attention Throws peppher::Error when a submitted task still uses the data: make sure
  ///            none does first (any host access waits for them).
  void resize(size_type n) {
    const size_type old = size();
    storage_.reshape(shape(n));
    value_init(old);
  }
  /// @brief Resizes to @p n elements; new ones are copies of @p value.
  void resize(size_type n, const T& value) {
    const size_type old = size();
    resize(n);
    T* p = static_cast<T*>(storage_.data());
    for (size_type i = old; i < n; ++i) p[i] = value;
  }
  /// @brief Host write of @p value into every element.
  void fill(const T& value) {
    T* p = host_write();
    for (size_type i = 0; i < size(); ++i) p[i] = value;
  }
  /// @brief A std::vector copy of the elements (host read).
  std::vector<T> to_std() const { return std::vector<T>(begin(), end()); }

  /// @brief For generated code: registers the data lazily (one handle for the vector's
  ///        lifetime), ends any host access phase, returns the handle to pass to a task.
  /// @attention Throws peppher::Error for a view, an empty vector, or when the runtime is
  ///            not running (e.g. after shutdown()). Call it for every component call.
  starpu_data_handle_t handle_for_task() const { return storage_.handle_for_task(); }
  /// @brief For generated code: splits into @p nparts blocks (sizes differ by at most one,
  ///        the first n % nparts blocks get one more element, see block_range()) and returns
  ///        the block handles, valid until the next whole-data use. Plans are reused.
  std::vector<starpu_data_handle_t> partition_blocks(size_type nparts) const {
    return storage_.partition({detail::PartitionSpec::Kind::VectorBlocks, {nparts}});
  }
  /// @brief For generated code: splits into consecutive blocks of the given @p sizes
  ///        (which must sum to size()) and returns the block handles.
  std::vector<starpu_data_handle_t> partition_sizes(const std::vector<size_type>& sizes) const {
    return storage_.partition({detail::PartitionSpec::Kind::VectorSizes, sizes});
  }
  /// @brief For the runtime's call core (detail::Call, behind TaskBuilder and
  ///        PartitionedCall): the type-erased storage, whose handle a call takes at submit.
  detail::Storage& storage() const noexcept { return storage_; }
  /// @brief True once handle_for_task() registered the data with StarPU.
  bool registered() const noexcept { return storage_.registered(); }
  /// @brief True for a view (see view()).
  bool is_view() const noexcept { return storage_.is_view(); }

  /// @brief Element-wise equality (operator== of T when it has one, else bytes); host reads.
  friend bool operator==(const Vector& a, const Vector& b) {
    return a.size() == b.size() && detail::equal_elements(a.host_read(), b.host_read(), a.size());
  }
  friend bool operator!=(const Vector& a, const Vector& b) { return !(a == b); }

 private:
  Vector(detail::Storage::ViewOf view, T* ptr, const detail::Shape& shape) noexcept
      : storage_(view, ptr, shape) {}
  explicit Vector(detail::Storage&& storage) noexcept : storage_(std::move(storage)) {}
  static detail::Shape shape(size_type n) noexcept {
    return {detail::Layout::Vector, sizeof(T), n, 1, n};
  }
  void copy_in(const T* src, size_type n) {
    if (n != 0) std::memcpy(storage_.data(), src, n * sizeof(T));
  }
  void value_init(size_type from) {
    if constexpr (!std::is_trivially_default_constructible_v<T>) {
      T* p = static_cast<T*>(storage_.data());
      for (size_type i = from; i < size(); ++i) p[i] = T();
    }
  }
  void fill_raw(const T& value) {
    T* p = static_cast<T*>(storage_.data());
    for (size_type i = 0; i < size(); ++i) p[i] = value;
  }

  static constexpr detail::Storage::Uninitialized kFilled{};  // the constructor writes all
  mutable detail::Storage storage_;
  detail::Halo halo_;  // a variant's view of a halo operand's block (else empty)
};

}  // namespace peppher
