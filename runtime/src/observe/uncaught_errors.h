// See uncaught_errors.cpp.
#pragma once

namespace peppher::detail {

/// @brief From init(), once per process: a peppher::Error that nothing catches ends the
///        program with its message and exit status 1, as the C interface's errors do,
///        instead of std::terminate's abort. Other exceptions go to the previous handler.
void install_uncaught_error_handler();

/// @brief Ends the program after an error nobody can catch: stdout flushed, @p message on
///        stderr (followed by " (in @p where, called from C)" when @p where is given), exit
///        status 1. Not exit(): static destructors must not run while StarPU's workers are
///        alive.
[[noreturn]] void end_program(const char* message, const char* where = nullptr) noexcept;

}  // namespace peppher::detail
