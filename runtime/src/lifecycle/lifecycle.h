// The runtime's state as the rest of the runtime sees it (init_shutdown.cpp).
#pragma once

#include <string>

namespace peppher::detail {

/// @brief Whether StarPU is up: false before init(), while a background start has not got
///        that far (init_in_background), and after shutdown(). Unlike is_running(), which is
///        true from init_in_background()'s return on.
bool started() noexcept;

/// @brief Why the last background start failed ("" when it did not): the calls made after
///        its error was thrown say it again.
std::string start_failure();

}  // namespace peppher::detail
