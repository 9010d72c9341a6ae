// The one exception type the runtime throws for misuse and for StarPU failures.
// Every message starts with "peppher: " and names the cause, so a failing program says why.
#pragma once

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

}  // namespace peppher
