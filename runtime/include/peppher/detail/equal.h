// Element-wise comparison used by the containers' operator==: T's own operator== when it
// has one, byte comparison otherwise (T is trivially copyable).
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace peppher::detail {

template <typename T, typename = void>
struct HasEqual : std::false_type {};
template <typename T>
struct HasEqual<T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>>
    : std::true_type {};

/// @brief True when the @p n elements at @p a and @p b are equal.
template <typename T>
bool equal_elements(const T* a, const T* b, std::size_t n) {
  if constexpr (HasEqual<T>::value) {
    for (std::size_t i = 0; i < n; ++i)
      if (!(a[i] == b[i])) return false;
    return true;
  } else {
    return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
  }
}

}  // namespace peppher::detail
