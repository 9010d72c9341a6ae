// A run that cannot use an OpenCL worker does not load the machine's OpenCL platforms (pocl:
// LLVM and Clang, about 100 ms of each start). Runs in a process of its own
// (runtime_tests_platforms): a platform loaded earlier would stay mapped.
#include <hwloc.h>
#include <starpu.h>

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

namespace {

// How many PCI devices hwloc finds on this machine with its I/O discovery on.
int machine_pci_devices() {
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return 0;
  hwloc_topology_set_io_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_ALL);
  int n = 0;
  if (hwloc_topology_load(topology) == 0)
    for (hwloc_obj_t pci = hwloc_get_next_pcidev(topology, nullptr); pci != nullptr;
         pci = hwloc_get_next_pcidev(topology, pci))
      ++n;
  hwloc_topology_destroy(topology);
  return n;
}

}  // namespace

TEST_CASE("a run without CUDA workers leaves out hwloc's PCI discovery", "[platforms]") {
  // StarPU asks hwloc for every PCI device and places only CUDA devices by them; reading
  // each device's configuration space from sysfs traps to the hypervisor on a virtual
  // machine (LUD's start: 16 of its 20 ms). With OpenCL workers too: pocl's device has no
  // PCI object, and StarPU 1.3 places no OpenCL device by one.
  if (std::getenv("HWLOC_COMPONENTS") != nullptr || std::getenv("HWLOC_XMLFILE") != nullptr) {
    WARN("HWLOC_COMPONENTS or HWLOC_XMLFILE is set: the discovery is the user's to choose");
    return;
  }
  const int found = machine_pci_devices();
  if (found == 0) {
    WARN("hwloc finds no PCI device on this machine: nothing to leave out");
    return;
  }
  for (const int nopencl : {0, 1}) {  // none, and one (pocl here)
    peppher::Config config;
    config.nopencl = nopencl;
    config.ncuda = 0;
    peppher::Runtime rt(config);
    INFO("nopencl " << nopencl << ": " << starpu_opencl_worker_get_count()
                    << " OpenCL workers; hwloc finds " << found << " PCI devices alone");
    CHECK(hwloc_get_next_pcidev(starpu_get_hwloc_topology(), nullptr) == nullptr);
  }
  CHECK(std::getenv("HWLOC_COMPONENTS") == nullptr);  // the program's environment again
}
