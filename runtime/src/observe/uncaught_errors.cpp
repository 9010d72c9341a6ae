// A peppher::Error that the program does not catch: bad input such as a PEPPHER_VARIANT that
// names no variant, or a forced variant with no worker of its kind in this run. A legacy
// program changed by three lines catches nothing, and std::terminate's default reports it
// with "terminate called after throwing ..." and an abort (SIGABRT, a core file): a crash to
// its user. The error is printed as the C interface prints its errors, and the program ends
// with status 1.
#include "observe/uncaught_errors.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>

#include "peppher/error.h"

namespace peppher::detail {
namespace {

std::terminate_handler g_previous = nullptr;

[[noreturn]] void on_terminate() noexcept {
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const Error& error) {
      end_program(error.what());  // "peppher: ...", as the C interface prints it
    } catch (...) {
    }
  }
  if (g_previous != nullptr) g_previous();
  std::abort();
}

}  // namespace

void end_program(const char* message, const char* where) noexcept {
  std::fflush(stdout);
  if (where != nullptr)
    std::fprintf(stderr, "%s (in %s, called from C)\n", message, where);
  else
    std::fprintf(stderr, "%s\n", message);
  std::fflush(stderr);
  std::_Exit(1);
}

void install_uncaught_error_handler() {
  static std::once_flag once;
  std::call_once(once, [] { g_previous = std::set_terminate(on_terminate); });
}

}  // namespace peppher::detail
