// Finds the runtime for generated Makefiles (see runtime_location.h). The build tree's
// paths are compiled in; an installed compose finds its prefix from its own location.
#include "compose/runtime_location.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
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
  settings.starpu_module = starpu_module();
  if (*PEPPHER_BUILD_EXTRA_LIBS != '\0') settings.peppher_libs += " " PEPPHER_BUILD_EXTRA_LIBS;
  return settings;
}

std::string opencl_checker() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("PEPPHER_OPENCL_CHECK")) {
    const std::string value = env;
    return value == "off" ? "" : value;
  }
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  const fs::path installed = self.parent_path().parent_path() / PEPPHER_INSTALL_LIBEXECDIR /
                             "peppher" / "peppher-opencl-check";
  if (!self.empty() && fs::is_regular_file(installed, ec)) return installed.string();
  if (fs::is_regular_file(PEPPHER_BUILD_OPENCL_CHECK, ec)) return PEPPHER_BUILD_OPENCL_CHECK;
  return "";
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

namespace {

// A StarPU pkg-config module's name (starpu-1.4): nothing a shell would read as more than
// a word.
bool starpu_module_name(const std::string& name) {
  if (name.rfind("starpu", 0) != 0) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-' && c != '.' && c != '_' &&
        c != '+')
      return false;
  }
  return true;
}

}  // namespace

std::string starpu_module() {
  const char* env = std::getenv("PEPPHER_STARPU");
  if (env != nullptr && starpu_module_name(env)) return env;
  return PEPPHER_STARPU_MODULE;
}

std::string starpu_in_use() {
  const std::string module = starpu_module();
  std::string version;
  if (FILE* p = ::popen(("pkg-config --modversion " + module + " 2>/dev/null").c_str(), "r")) {
    char buf[256];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) version.append(buf, n);
    ::pclose(p);
  }
  while (!version.empty() && std::isspace(static_cast<unsigned char>(version.back())) != 0)
    version.pop_back();
  if (version.empty()) return "StarPU: pkg-config does not find module " + module;
  return "StarPU " + version + " (pkg-config module " + module + ")";
}

namespace {

// Whether `command` names an executable: a path, or a name found on PATH.
bool executable_exists(const std::string& command) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto runnable = [&](const fs::path& p) {
    return fs::is_regular_file(p, ec) &&
           (fs::status(p, ec).permissions() & fs::perms::owner_exec) != fs::perms::none;
  };
  if (command.find('/') != std::string::npos) return runnable(command);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && runnable(fs::path(dir) / command)) return true;
  }
  return false;
}

}  // namespace

std::string mpi_compiler() {
  const char* env = std::getenv("MPICXX");
  return env != nullptr && *env != '\0' ? env : "mpicxx";
}

std::string mpi_problem() {
  namespace fs = std::filesystem;
  std::string missing;
  auto add = [&](const std::string& what) { missing += (missing.empty() ? "" : "; ") + what; };
  const std::string mpi_module = "starpumpi" + starpu_module().substr(6);  // starpu-1.4 -> ...
  if (std::system(("pkg-config --exists " + mpi_module + " >/dev/null 2>&1").c_str()) != 0) {
    add("StarPU-MPI was not found (pkg-config " + mpi_module + "; Debian: libstarpu-dev)");
  }
  const std::string mpicxx = mpi_compiler();
  if (!executable_exists(mpicxx)) {
    add("the MPI C++ compiler '" + mpicxx +
        "' was not found (set MPICXX, or install Open MPI: openmpi-bin libopenmpi-dev)");
  }
  const std::string libs = locate_runtime().peppher_lib_file;
  std::error_code ec;
  if (!fs::exists(fs::path(libs).parent_path() / "libpeppher_mpi.a", ec)) {
    add("this PEPPHER runtime was built without its StarPU-MPI layer (libpeppher_mpi.a is not "
        "next to " +
        libs + ")");
  }
  return missing;
}

}  // namespace peppher
