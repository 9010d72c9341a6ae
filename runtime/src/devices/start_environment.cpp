// Environment variables set for StarPU's start only (start_environment.h).
#include "devices/start_environment.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace peppher::detail {
namespace {

std::vector<std::string> g_set;  // init() and its restore run under the lifecycle mutex

}  // namespace

void quiet_starpu() {
  // StarPU reads STARPU_SILENT once, in starpu_init() (1.3 and 1.4, src/common/utils.c):
  // set for the start, it keeps StarPU quiet for the whole run.
  set_for_start("STARPU_SILENT", "1");
}

void skip_device_discovery() {
  const char* xml = std::getenv("HWLOC_XMLFILE");
  if (xml != nullptr && *xml != '\0') return;  // the user's topology file: its reader stays
  // Every device or I/O plugin Debian's hwloc ships (2.9: gl, opencl, pci; 2.12 adds
  // levelzero) or a build may add (cuda, nvml, rsmi), and the libxml2 reader.
  set_for_start("HWLOC_PLUGINS_BLACKLIST",
                "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_levelzero,hwloc_cuda,hwloc_nvml,"
                "hwloc_rsmi,hwloc_xml_libxml");
  // And the built-in Linux component's I/O phases: StarPU asks hwloc for its PCI devices,
  // which it reads from each device's sysfs config space, a trap to the hypervisor on a
  // virtual machine (LUD on 2 CPU workers: 16 ms of its 20 ms start, 6 PCI devices). The
  // name is hwloc 2's alias for those phases ("linuxio", the 2.0-2.4 component).
  set_for_start("HWLOC_COMPONENTS", "-linuxio");
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
}

}  // namespace peppher::detail
