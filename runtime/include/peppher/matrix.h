// peppher::Matrix<T>: a row-major rows x cols smart container with a leading dimension,
// registered lazily as one StarPU matrix handle (nx = cols, ny = rows, ld) when first used.
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

/// @brief Row-major matrix of trivially copyable T: element (i, j) lives at data()[i*ld()+j].
/// Host access follows the same rules as Vector<T>: non-const operator()/at() return an
/// ElementRef proxy; const access, host_read() and const data() are host reads; non-const
/// data() and host_write() are read-write host accesses. Padding (ld() > cols()) is part of
/// the allocation but never read by comparisons. There are no element iterators (the padding
/// would break them): loop over rows and columns, or use host_read()/host_write() pointers.
/// @attention The first host access after a component call blocks until the tasks using
///            the data finished; destruction waits for pending tasks. Threads (runtime/README.md):
///            like std::vector, concurrent reads from several threads are safe (const access,
///            host_read(), copies, component calls that only read it, whole or partitioned);
///            anything that writes it (non-const access, host_write(), resize, assignment,
///            destruction, a call writing it) needs exclusive use.
template <typename T>
class Matrix {
  static_assert(std::is_trivially_copyable_v<T>, "peppher::Matrix<T> needs a trivially copyable T");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using reference = ElementRef<T>;

  /// @brief Empty 0 x 0 matrix.
  Matrix() = default;
  /// @brief @p rows x @p cols value-initialized elements, no padding (ld() == cols()).
  Matrix(size_type rows, size_type cols) : storage_(shape(rows, cols, cols)) { value_init(); }
  /// @brief @p rows x @p cols zero elements created distributed (`Matrix<double> m(r, c,
  ///        peppher::distributed)`, no padding): no host memory is allocated now; blocks
  ///        (row blocks or 2-D blocks) are created by the first partitioned call where their
  ///        tasks run, as for Vector(size_type, DistributedTag), whose rules it follows.
  /// @attention As for Vector(size_type, DistributedTag): a CPU worker zero-fills blocks.
  Matrix(size_type rows, size_type cols, DistributedTag)
      : storage_(shape(rows, cols, cols), detail::Storage::Deferred{}) {
    static_assert(std::is_trivially_default_constructible_v<T>,
                  "a distributed Matrix<T> starts as zero bytes: T must be trivially "
                  "default-constructible");
  }
  /// @brief @p rows x @p cols copies of @p value.
  Matrix(size_type rows, size_type cols, const T& value)
      : storage_(shape(rows, cols, cols), kFilled) {
    fill_raw(value);
  }
  /// @brief @p rows x @p cols elements copied from the row-major @p values
  ///        (throws peppher::Error unless values.size() == rows * cols).
  Matrix(size_type rows, size_type cols, const std::vector<T>& values)
      : storage_(shape(rows, cols, cols), kFilled) {
    if (values.size() != rows * cols)
      throw Error("Matrix(rows, cols, values): values.size() != rows * cols");
    if (!values.empty()) std::memcpy(storage_.data(), values.data(), values.size() * sizeof(T));
  }
  /// @brief Takes over the row-major @p values without copying them (a temporary, or
  ///        `std::move(v)`; throws peppher::Error unless values.size() == rows * cols).
  Matrix(size_type rows, size_type cols, std::vector<T>&& values)
      : storage_(adopt(rows, cols, std::move(values))) {}
  /// @brief A container over the program's own row-major @p rows x @p cols matrix at @p data
  ///        (leading dimension @p ld >= cols), used in place as Vector::borrow() does, with
  ///        the same rules (starpu_matrix_data_register()).
  static Matrix borrow(T* data, size_type rows, size_type cols, size_type ld) {
    if (ld < cols) throw Error("Matrix::borrow: ld < cols");
    return Matrix(
        detail::Storage(detail::Storage::External{}, data, shape(rows, cols, ld), nullptr));
  }
  /// @brief Rows given as nested lists; throws peppher::Error when rows differ in length.
  Matrix(std::initializer_list<std::initializer_list<T>> rows_init)
      : storage_(shape(rows_init.size(), rows_init.size() ? rows_init.begin()->size() : 0,
                       rows_init.size() ? rows_init.begin()->size() : 0)) {
    T* p = static_cast<T*>(storage_.data());
    for (const auto& row : rows_init) {
      if (row.size() != cols()) throw Error("Matrix{...}: rows of different lengths");
      for (const T& x : row) *p++ = x;
    }
  }
  /// @brief @p rows x @p cols value-initialized elements with leading dimension @p ld
  ///        (>= cols, throws peppher::Error otherwise).
  static Matrix padded(size_type rows, size_type cols, size_type ld) {
    if (ld < cols) throw Error("Matrix::padded: ld < cols");
    Matrix m;
    m.storage_ = detail::Storage(shape(rows, cols, ld));
    m.value_init();
    return m;
  }
  /// @brief Non-owning view of the row-major matrix at @p ptr, for use inside variants: no
  ///        coherence work, never registered, never freed.
  static Matrix view(T* ptr, size_type rows, size_type cols, size_type ld) {
    if (ld < cols) throw Error("Matrix::view: ld < cols");
    return Matrix(detail::Storage::ViewOf{}, ptr, shape(rows, cols, ld));
  }

  /// @brief Deep copy (same ld); waits for tasks still writing @p other.
  Matrix(const Matrix& other) : storage_(other.storage_.clone()) {}
  Matrix(Matrix&& other) noexcept = default;
  Matrix& operator=(const Matrix& other) {
    if (this != &other) {
      storage_ = other.storage_.clone();
      halo_ = {};
    }
    return *this;
  }
  Matrix& operator=(Matrix&& other) noexcept = default;
  /// @brief Waits for pending tasks using the data, unregisters it and frees the memory.
  ~Matrix() = default;

  size_type rows() const noexcept { return storage_.shape().ny; }
  size_type cols() const noexcept { return storage_.shape().nx; }
  size_type ld() const noexcept { return storage_.shape().ld; }
  size_type size() const noexcept { return rows() * cols(); }
  bool empty() const noexcept { return size() == 0; }

  /// @brief True for a matrix created distributed whose whole was not materialised yet.
  /// @attention Takes the container's lock; safe next to other readers.
  bool is_distributed() const { return storage_.is_distributed(); }
  /// @brief Bytes of this rank's main memory the elements take now (see Vector::host_bytes()).
  /// @attention Takes the container's lock; safe next to other readers.
  std::size_t host_bytes() const { return storage_.host_bytes(); }

  /// @brief Inside a variant, for an operand with halo="N" (FORMAT.md): how many rows of
  ///        the neighbouring blocks the task may read above row 0 and below the last row
  ///        (N, or 0 at the top or bottom of the whole matrix; 0 outside halo operands).
  size_type halo_above() const noexcept { return halo_.n[0]; }
  size_type halo_below() const noexcept { return halo_.n[1]; }
  /// @brief Row @p i of the block or of its halo: @p i from -halo_above() to
  ///        rows() + halo_below() - 1 (unchecked, like a raw array; host read). The halo
  ///        rows are separate memory: step from row to row with row(), not with ld().
  const T* row(std::ptrdiff_t i) const {
    if (i < 0) {
      const auto r = static_cast<size_type>(static_cast<std::ptrdiff_t>(halo_.n[0]) + i);
      return static_cast<const T*>(halo_.ptr[0]) + r * halo_.ld[0];
    }
    const auto u = static_cast<size_type>(i);
    if (u >= rows()) return static_cast<const T*>(halo_.ptr[1]) + (u - rows()) * halo_.ld[1];
    return host_read() + u * ld();
  }
  /// @brief For generated backend wrappers: the halo of this block view.
  void set_halo(const detail::Halo& halo) noexcept { halo_ = halo; }

  /// @brief Proxy to element (@p i, @p j) (checked in debug builds).
  reference operator()(size_type i, size_type j) {
    if constexpr (PEPPHER_INDEX_CHECKS) check(i, j);
    return reference(storage_, i * ld() + j);
  }
  /// @brief Host read of element (@p i, @p j) (checked in debug builds).
  const T& operator()(size_type i, size_type j) const {
    if constexpr (PEPPHER_INDEX_CHECKS) check(i, j);
    return storage_.read_element<T>(i * ld() + j);
  }
  /// @brief Checked proxy to element (@p i, @p j); throws peppher::Error when out of range.
  reference at(size_type i, size_type j) {
    check(i, j);
    return reference(storage_, i * ld() + j);
  }
  /// @brief Checked host read of element (@p i, @p j).
  const T& at(size_type i, size_type j) const {
    check(i, j);
    return (*this)(i, j);
  }

  /// @brief Host read access to the rows()*ld() elements (waits for pending writers).
  const T* host_read() const {
    storage_.ensure_read();
    return static_cast<const T*>(storage_.data());
  }
  /// @brief Host read-write access (waits for all pending tasks).
  T* host_write() {
    storage_.ensure_write();
    return static_cast<T*>(storage_.data());
  }
  T* data() { return host_write(); }
  const T* data() const { return host_read(); }

  /// @brief Reshapes to @p rows x @p cols (ld() == cols()); the contents are reset to
  ///        value-initialized elements.
  /// @attention Throws peppher::Error when a submitted task still uses the data.
  void resize(size_type rows, size_type cols) {
    storage_.reshape(shape(rows, cols, cols));
    fill_raw(T());
  }
  /// @brief Host write of @p value into every element (padding untouched).
  void fill(const T& value) {
    host_write();
    fill_raw(value);
  }
  /// @brief Row-major copy of the rows()*cols() elements, without padding (host read).
  std::vector<T> to_std() const {
    std::vector<T> out;
    out.reserve(size());
    const T* p = host_read();
    for (size_type i = 0; i < rows(); ++i)
      out.insert(out.end(), p + i * ld(), p + i * ld() + cols());
    return out;
  }

  /// @brief For generated code: registers lazily (one handle for the matrix's lifetime),
  ///        ends any host access phase, returns the handle to pass to a task.
  /// @attention Throws peppher::Error for a view, an empty matrix, or when the runtime is
  ///            not running.
  starpu_data_handle_t handle_for_task() const { return storage_.handle_for_task(); }
  /// @brief For generated code: @p nparts blocks of consecutive rows (sizes as block_range()),
  ///        returned top to bottom.
  std::vector<starpu_data_handle_t> partition_rows(size_type nparts) const {
    return storage_.partition({detail::PartitionSpec::Kind::MatrixRows, {nparts}});
  }
  /// @brief For generated code: @p row_parts x @p col_parts 2-D blocks, returned in
  ///        row-major block order (block (bi, bj) at index bi * col_parts + bj).
  std::vector<starpu_data_handle_t> partition_blocks(size_type row_parts,
                                                     size_type col_parts) const {
    return storage_.partition({detail::PartitionSpec::Kind::Matrix2d, {row_parts, col_parts}});
  }
  /// @brief For generated code: consecutive row blocks of the given @p sizes (which must sum
  ///        to rows()), returned top to bottom; the uneven split of `partition="?"`.
  std::vector<starpu_data_handle_t> partition_row_sizes(const std::vector<size_type>& sizes) const {
    return storage_.partition({detail::PartitionSpec::Kind::MatrixRowSizes, sizes});
  }
  /// @brief For the runtime's call core (detail::Call, behind TaskBuilder and
  ///        PartitionedCall): the type-erased storage, whose handle a call takes at submit.
  detail::Storage& storage() const noexcept { return storage_; }
  bool registered() const noexcept { return storage_.registered(); }
  bool is_view() const noexcept { return storage_.is_view(); }

  /// @brief Same shape and equal elements (padding ignored); host reads.
  friend bool operator==(const Matrix& a, const Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    const T* pa = a.host_read();
    const T* pb = b.host_read();
    for (size_type i = 0; i < a.rows(); ++i)
      if (!detail::equal_elements(pa + i * a.ld(), pb + i * b.ld(), a.cols())) return false;
    return true;
  }
  friend bool operator!=(const Matrix& a, const Matrix& b) { return !(a == b); }

 private:
  Matrix(detail::Storage::ViewOf view, T* ptr, const detail::Shape& shape) noexcept
      : storage_(view, ptr, shape) {}
  explicit Matrix(detail::Storage&& storage) noexcept : storage_(std::move(storage)) {}
  static detail::Storage adopt(size_type rows, size_type cols, std::vector<T>&& values) {
    if (values.size() != rows * cols)
      throw Error("Matrix(rows, cols, values): values.size() != rows * cols");
    return detail::Storage::adopting(std::move(values), shape(rows, cols, cols));
  }
  static detail::Shape shape(size_type rows, size_type cols, size_type ld) noexcept {
    return {detail::Layout::Matrix, sizeof(T), cols, rows, ld};
  }
  void check(size_type i, size_type j) const {
    detail::check_index("Matrix row", i, rows());
    detail::check_index("Matrix column", j, cols());
  }
  void value_init() {
    if constexpr (!std::is_trivially_default_constructible_v<T>) fill_raw(T());
  }
  void fill_raw(const T& value) {
    T* p = static_cast<T*>(storage_.data());
    for (size_type i = 0; i < rows(); ++i)
      for (size_type j = 0; j < cols(); ++j) p[i * ld() + j] = value;
  }

  static constexpr detail::Storage::Uninitialized kFilled{};  // the constructor writes all
  mutable detail::Storage storage_;
  detail::Halo halo_;  // a variant's view of a halo operand's block (else empty)
};

}  // namespace peppher
