// The one exception type the runtime throws for misuse and for StarPU failures.
// Every message starts with "peppher: " and names the cause, so a failing program says why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace peppher {

/// @brief Error raised by the runtime: StarPU could not start, a container was misused
///        (out-of-range index, resize while tasks are pending, use after shutdown), ...
class Error : public std::runtime_error {
 public:
  /// @brief Builds an error whose message is "peppher: " followed by @p what.
  explicit Error(const std::string& what) : std::runtime_error("peppher: " + what) {}
};

/// @brief The largest extent StarPU registers in one dimension (its interfaces hold 32-bit
///        extents): a raw pointer's length, a matrix's rows or row width.
inline constexpr long long kMaxExtent = std::numeric_limits<std::uint32_t>::max();
/// @brief The largest element count of a raw matrix (rows x row width).
inline constexpr long long kMaxElements = std::numeric_limits<long long>::max();

/// @brief A raw pointer's length as the entry wrapper computed it (@p value, from the
///        descriptor's @p what, e.g. "numElements = n*m"), checked before it is registered:
///        throws peppher::Error naming the interface, the parameter and the value when it
///        is negative or above @p max.
inline std::size_t checked_length(const char* iface, const char* param, const char* what,
                                  long long value, long long max) {
  if (value >= 0 && value <= max) return static_cast<std::size_t>(value);
  throw Error(std::string(iface) + ": parameter '" + param + "' has " + what + " = " +
              std::to_string(value) +
              (value < 0 ? ", a negative length"
                         : ", more elements than StarPU registers in one dimension (" +
                               std::to_string(max) + ")"));
}

/// @brief checked_length of raw pointer @p pointer's length: also throws peppher::Error
///        naming the interface and the parameter when the pointer is null but the length is
///        not 0 (StarPU would copy from it, a variant read it).
inline std::size_t checked_length(const char* iface, const char* param, const char* what,
                                  long long value, long long max, const void* pointer) {
  const std::size_t n = checked_length(iface, param, what, value, max);
  if (pointer != nullptr || n == 0) return n;
  throw Error(std::string(iface) + ": parameter '" + param + "' is a null pointer but has " + what +
              " = " + std::to_string(value) + " (a null pointer needs length 0)");
}

}  // namespace peppher
