// The proxy returned by a container's non-const operator[]: it tells host reads from host
// writes (paper IV.D, footnote 3) so each costs one inline phase test after the first access.
#pragma once

#include <cstddef>

#include "peppher/detail/storage.h"

namespace peppher {

/// @brief Reference-like proxy to one element of a smart container.
/// Converting it to T is a host read (fetches once after a device-side write; of a
/// container partitioned over several ranks or created distributed, fetches only the block
/// holding the element, once per block and phase); assigning
/// to it is a host write (invalidates device copies once). Compound assignments and ++/--
/// are read-modify-writes. For members of a struct element use read() or write().
/// @attention Blocks on the first access of a phase while a submitted task still uses the
///            data; afterwards costs what std::vector costs. Threads: the rules of its
///            container (reads may be concurrent, writes need exclusive use).
template <typename T>
class ElementRef {
 public:
  /// @brief Proxy to element @p index of @p storage (no access happens yet).
  ElementRef(detail::Storage& storage, std::size_t index) noexcept
      : storage_(&storage), index_(index) {}
  ElementRef(const ElementRef&) noexcept = default;

  /// @brief Host read of the element.
  operator T() const { return read(); }
  /// @brief Host read of the element, by const reference.
  const T& read() const { return storage_->read_element<T>(index_); }
  /// @brief Host write access to the element (e.g. `v[i].write().x = 1`).
  T& write() const {
    storage_->ensure_write();
    return static_cast<T*>(storage_->data())[index_];
  }

  /// @brief Host write of @p value.
  const ElementRef& operator=(const T& value) const {
    write() = value;
    return *this;
  }
  /// @brief Host read of @p other, host write of this element.
  const ElementRef& operator=(const ElementRef& other) const {
    const T value = other.read();
    write() = value;
    return *this;
  }

  template <typename U>
  const ElementRef& operator+=(const U& u) const {
    write() += u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator-=(const U& u) const {
    write() -= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator*=(const U& u) const {
    write() *= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator/=(const U& u) const {
    write() /= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator%=(const U& u) const {
    write() %= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator&=(const U& u) const {
    write() &= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator|=(const U& u) const {
    write() |= u;
    return *this;
  }
  template <typename U>
  const ElementRef& operator^=(const U& u) const {
    write() ^= u;
    return *this;
  }
  const ElementRef& operator++() const {
    ++write();
    return *this;
  }
  const ElementRef& operator--() const {
    --write();
    return *this;
  }
  T operator++(int) const { return write()++; }
  T operator--(int) const { return write()--; }

 private:
  detail::Storage* storage_;
  std::size_t index_;
};

}  // namespace peppher
