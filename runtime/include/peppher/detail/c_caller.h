// For generated entry wrappers with C linkage: the error path when the caller is C code.
#pragma once

#include <exception>

namespace peppher::detail {

/// @brief Prints @p error ("peppher: ...") and @p what (the call that failed) to stderr and
///        ends the program with exit status 1, without running static destructors.
[[noreturn]] void fail_in_c_caller(const char* what, const std::exception& error) noexcept;

}  // namespace peppher::detail
