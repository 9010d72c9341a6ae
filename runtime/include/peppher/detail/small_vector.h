// A vector of trivially copyable values that keeps up to N of them inside the object.
//
// Why: every component call builds its operands' block lists (sizes, offsets, handles). Most
// calls have one block, and with std::vector each list was a heap allocation: with them,
// apps/ode's calling thread made about 19 allocations per call and ran 245 M instructions
// (callgrind, ode 1000 300, one CPU worker; glibc's malloc and free about 16 % of them),
// 218 M after, the hand-written StarPU version 189 M.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace peppher::detail {

template <typename T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  SmallVector() = default;
  SmallVector(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit
  SmallVector& operator=(const std::vector<T>& v) {
    assign(v.begin(), v.end());
    return *this;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return size_ <= N ? inline_ : heap_.data(); }
  const T* data() const noexcept { return size_ <= N ? inline_ : heap_.data(); }
  T* begin() noexcept { return data(); }
  T* end() noexcept { return data() + size_; }
  const T* begin() const noexcept { return data(); }
  const T* end() const noexcept { return data() + size_; }
  T& operator[](std::size_t i) noexcept { return data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  const T& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data()[i];
  }
  void assign(std::size_t n, const T& value) {
    resize_storage(n);
    for (std::size_t i = 0; i < n; ++i) data()[i] = value;
  }
  template <typename It>  // a random-access iterator (no <iterator> for std::distance)
  void assign(It first, It last) {
    const auto n = static_cast<std::size_t>(last - first);
    resize_storage(n);
    T* out = data();
    for (; first != last; ++first) *out++ = *first;
  }
  void push_back(const T& value) {
    const T copy = value;  // value may be one of ours
    if (size_ < N) {
      inline_[size_++] = copy;
      return;
    }
    if (size_ == N) heap_.assign(inline_, inline_ + N);
    heap_.push_back(copy);
    ++size_;
  }
  /// @brief Grows to @p n values, the new ones @p value (never shrinks).
  void grow(std::size_t n, const T& value) {
    const T copy = value;
    while (size_ < n) push_back(copy);
  }
  void clear() noexcept {
    heap_.clear();
    size_ = 0;
  }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

 private:
  // Makes room for n values (their contents unspecified): inline up to N, else on the heap.
  void resize_storage(std::size_t n) {
    if (n <= N)
      heap_.clear();
    else
      heap_.resize(n);
    size_ = n;
  }

  T inline_[N] = {};
  std::vector<T> heap_;  // the values when there are more than N
  std::size_t size_ = 0;
};

}  // namespace peppher::detail
