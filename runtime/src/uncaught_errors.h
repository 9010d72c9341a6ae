// See uncaught_errors.cpp.
#pragma once

namespace peppher::detail {

/// @brief From init(), once per process: a peppher::Error that nothing catches ends the
///        program with its message and exit status 1, as the C interface's errors do,
///        instead of std::terminate's abort. Other exceptions go to the previous handler.
void install_uncaught_error_handler();

}  // namespace peppher::detail
