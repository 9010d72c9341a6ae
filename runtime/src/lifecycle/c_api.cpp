// The runtime's C interface (peppher/c_api.h) and the error path of entry wrappers that C
// code calls: a C caller cannot catch a peppher::Error, so it is printed and the program ends.
#include "peppher/c_api.h"

#include <exception>

#include "observe/uncaught_errors.h"
#include "peppher/detail/c_caller.h"
#include "peppher/init.h"

namespace peppher::detail {

void fail_in_c_caller(const char* what, const std::exception& error) noexcept {
  end_program(error.what(), what);
}

}  // namespace peppher::detail

namespace {

// The default Config's scheduler (Config::scheduler) unless the caller names one.
peppher::Config config_of(const char* scheduler) {
  return scheduler != nullptr ? peppher::Config::with_scheduler(scheduler) : peppher::Config{};
}

}  // namespace

extern "C" void peppher_initialize(const char* scheduler) {
  try {
    peppher::init(config_of(scheduler));
  } catch (const std::exception& e) {
    peppher::detail::fail_in_c_caller("PEPPHER_INITIALIZE()", e);
  }
}

extern "C" void peppher_initialize_in_background(const char* scheduler) {
  try {
    peppher::init_in_background(config_of(scheduler));
  } catch (const std::exception& e) {
    peppher::detail::fail_in_c_caller("PEPPHER_INITIALIZE()", e);
  }
}

extern "C" void peppher_shutdown(void) {
  try {
    peppher::shutdown();
  } catch (const std::exception& e) {
    peppher::detail::fail_in_c_caller("PEPPHER_SHUTDOWN()", e);
  }
}
