// Finds the runtime for generated Makefiles (see runtime_location.h). The build tree's
// paths are compiled in; an installed compose finds its prefix from its own location.
#include "compose/runtime_location.h"

#include <filesystem>
#include <system_error>

namespace peppher {

emit::EmitSettings locate_runtime() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path self = fs::canonical("/proc/self/exe", ec);
  fs::path build_tree_compose = fs::weakly_canonical(PEPPHER_BUILD_COMPOSE, ec);

  const fs::path prefix = self.parent_path().parent_path();
  const bool installed = !self.empty() && self != build_tree_compose &&
                         fs::exists(prefix / PEPPHER_INSTALL_INCLUDEDIR / "peppher/runtime.h", ec);
  emit::EmitSettings settings;
  if (!installed) {  // the build tree's compose, or a test linking compose_core
    settings.peppher_cflags = "-I" + std::string(PEPPHER_BUILD_INCLUDE_DIR);
    settings.peppher_libs = "-L" + std::string(PEPPHER_BUILD_LIB_DIR) + " -lpeppher";
    settings.peppher_lib_file = std::string(PEPPHER_BUILD_LIB_DIR) + "/libpeppher.a";
  } else {
    settings.peppher_cflags = "-I" + (prefix / PEPPHER_INSTALL_INCLUDEDIR).string();
    settings.peppher_libs = "-L" + (prefix / PEPPHER_INSTALL_LIBDIR).string() + " -lpeppher";
    settings.peppher_lib_file = (prefix / PEPPHER_INSTALL_LIBDIR / "libpeppher.a").string();
  }
  if (*PEPPHER_BUILD_EXTRA_LIBS != '\0') settings.peppher_libs += " " PEPPHER_BUILD_EXTRA_LIBS;
  return settings;
}

std::vector<std::string> runtime_header_dirs() {
  std::vector<std::string> dirs = {locate_runtime().peppher_cflags.substr(2)};  // drop "-I"
  std::string starpu = PEPPHER_STARPU_INCLUDE_DIRS;  // '|'-separated, from pkg-config
  for (size_t start = 0, end; start < starpu.size(); start = end + 1) {
    end = starpu.find('|', start);
    if (end == std::string::npos) end = starpu.size();
    if (end > start) dirs.push_back(starpu.substr(start, end - start));
  }
  return dirs;
}

}  // namespace peppher
