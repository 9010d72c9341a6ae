// Index checks shared by the containers: at() always checks; operator[] checks only in
// debug builds (PEPPHER_DEBUG defined, or NDEBUG not defined).
#pragma once

#include <cstddef>

#if defined(PEPPHER_DEBUG) || !defined(NDEBUG)
#define PEPPHER_INDEX_CHECKS 1
#else
#define PEPPHER_INDEX_CHECKS 0
#endif

namespace peppher::detail {

/// @brief Throws peppher::Error "<what>: index <index> out of range [0, <size>)".
[[noreturn]] void throw_out_of_range(const char* what, std::size_t index, std::size_t size);

struct Shape;

/// @brief The bytes a container of @p shape spans (rows x leading dimension x element
///        size), computed without wrapping: throws peppher::Error when the product does not
///        fit in size_t, or when an extent exceeds what StarPU registers (32-bit extents).
std::size_t checked_bytes(const Shape& shape);

/// @brief Checks @p index < @p size, throwing peppher::Error otherwise.
inline void check_index(const char* what, std::size_t index, std::size_t size) {
  if (index >= size) throw_out_of_range(what, index, size);
}

}  // namespace peppher::detail
