// The runtime's C interface (peppher/c_api.h) and the error path of entry wrappers that C
// code calls: a C caller cannot catch a peppher::Error, so it is printed and the program ends.
#include "peppher/c_api.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "peppher/detail/c_caller.h"
#include "peppher/init.h"

namespace peppher::detail {

void fail_in_c_caller(const char* what, const std::exception& error) noexcept {
  std::fflush(stdout);
  std::fprintf(stderr, "%s (in %s, called from C)\n", error.what(), what);
  std::fflush(stderr);
  // Not exit(): static destructors must not run while StarPU's workers are alive.
  std::_Exit(1);
}

}  // namespace peppher::detail

extern "C" void peppher_initialize(const char* scheduler) {
  try {
    peppher::init(peppher::Config::with_scheduler(scheduler != nullptr ? scheduler : "dmda"));
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
