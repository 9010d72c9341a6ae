// Environment variables set for StarPU's start only (start_environment.h).
#include "devices/start_environment.h"

#include <cstdlib>
#include <string>
#include <vector>

// StarPU reads STARPU_SILENT once, in starpu_init(), into this variable of its own (1.3 and
// 1.4, src/common/utils.c); weak, so that a StarPU without it links and stays silent.
extern "C" int _starpu_silent __attribute__((weak));

namespace peppher::detail {
namespace {

std::vector<std::string> g_set;  // init() and its restore run under the lifecycle mutex
bool g_quiet = false;

}  // namespace

void quiet_start() {
  g_quiet = set_for_start("STARPU_SILENT", "1");
}

void stay_quiet() {
  g_quiet = false;  // restore_start_environment() leaves _starpu_silent as the start set it
}

bool set_for_start(const char* name, const char* value) {
  const char* mine = std::getenv(name);
  if (mine != nullptr && *mine != '\0') return false;
  if (::setenv(name, value, 1) != 0) return false;
  g_set.emplace_back(name);
  return true;
}

void restore_start_environment() noexcept {
  for (const std::string& name : g_set) ::unsetenv(name.c_str());
  g_set.clear();
  if (g_quiet && &_starpu_silent != nullptr) _starpu_silent = 0;
  g_quiet = false;
}

}  // namespace peppher::detail
