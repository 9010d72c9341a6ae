// A run that cannot use an OpenCL worker does not load the machine's OpenCL platforms (pocl:
// LLVM and Clang, about 100 ms of each start). Runs in a process of its own
// (runtime_tests_platforms): a platform loaded earlier would stay mapped.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;

namespace {

// The libraries the ICD loader's vendor files name (/etc/OpenCL/vendors/*.icd).
std::vector<std::string> vendor_libraries() {
  std::vector<std::string> libs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/etc/OpenCL/vendors", ec)) {
    if (entry.path().extension() != ".icd") continue;
    std::ifstream in(entry.path());
    std::string lib;
    if (std::getline(in, lib) && !lib.empty())
      libs.push_back(std::filesystem::path(lib).filename().string());
  }
  return libs;
}

std::string mapped_files() {
  std::ifstream in("/proc/self/maps");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a run without OpenCL workers leaves the OpenCL platforms unloaded", "[platforms]") {
  const std::vector<std::string> libs = vendor_libraries();
  if (libs.empty()) {
    WARN("no OpenCL vendor is installed: nothing to check");
    return;
  }
  if (std::getenv("OCL_ICD_VENDORS") != nullptr) {
    WARN("OCL_ICD_VENDORS is set: the platforms are the user's to choose");
    return;
  }
  // A STARPU_HOME of its own: where the bus model was measured with OpenCL devices, the
  // platforms stay (hiding them would make StarPU measure the bus again).
  char home[] = "/tmp/peppher-platforms-XXXXXX";
  REQUIRE(mkdtemp(home) != nullptr);
  ScopedEnv own_home("STARPU_HOME", home);
  peppher::Config config;
  config.nopencl = 0;
  peppher::Runtime rt(config);
  const std::string maps = mapped_files();
  for (const std::string& lib : libs) {
    INFO(lib);
    CHECK(maps.find(lib) == std::string::npos);
  }
  CHECK(std::getenv("OCL_ICD_VENDORS") == nullptr);  // the program's environment again
}

TEST_CASE("a run with CPU workers only loads none of hwloc's device plugins", "[platforms]") {
  // Debian's hwloc loads plugins for displays (X11), OpenCL, PCI and libxml2 at every
  // topology load: 25 ms of an empty program's start, for devices a CPU-only run never places.
  std::vector<std::string> plugins;
  std::error_code ec;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/hwloc", "/usr/lib/aarch64-linux-gnu/hwloc",
                          "/usr/lib/hwloc", "/usr/lib64/hwloc"})
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".so") plugins.push_back(entry.path().filename().string());
  if (plugins.empty()) {
    WARN("hwloc has no plugins here: nothing to check");
    return;
  }
  if (std::getenv("HWLOC_PLUGINS_BLACKLIST") != nullptr ||
      std::getenv("HWLOC_XMLFILE") != nullptr) {
    WARN("HWLOC_PLUGINS_BLACKLIST or HWLOC_XMLFILE is set: the plugins are the user's to choose");
    return;
  }
  peppher::Config config;
  config.nopencl = 0;
  config.ncuda = 0;
  peppher::Runtime rt(config);
  const std::string maps = mapped_files();
  for (const std::string& plugin : plugins) {
    INFO(plugin);
    CHECK(maps.find("/" + plugin) == std::string::npos);
  }
  CHECK(std::getenv("HWLOC_PLUGINS_BLACKLIST") == nullptr);  // the program's environment again
}
