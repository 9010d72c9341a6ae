// The host's cores, and the note on a StarPU that caps its CPU workers below them
// (cpu_cores.h). Debian 12's StarPU package is built with STARPU_MAXCPUS 4 (Debian 13's with
// 32): on a 16-core node a composed program would get 4 CPU workers, and its OpenMP variants
// 4 cores, while the user's OpenMP original uses 16, and StarPU says nothing of it.
#include "devices/cpu_cores.h"

#include <hwloc.h>
#include <starpu.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <string>

#include "peppher/detail/cpu_cap.h"

namespace peppher::detail {

HostCpus host_cpus() {
  HostCpus cpus;
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return cpus;
  if (hwloc_topology_load(topology) == 0) {
    cpus.cores = std::max(hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE), 0);
    cpus.pus = std::max(hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU), 0);
  }
  hwloc_topology_destroy(topology);
  return cpus;
}

int host_cores() {
  const HostCpus cpus = host_cpus();
  const int n = cpus.cores > 0 ? cpus.cores : cpus.pus;
  const char* per_core = std::getenv("STARPU_NTHREADS_PER_CORE");
  const int threads = per_core != nullptr ? std::atoi(per_core) : 1;
  return n > 0 ? n * std::max(threads, 1) : 0;
}

std::string cpu_cap_note(int cores, int maxcpus, int requested) {
  if (cores <= maxcpus) return "";
  if (requested >= 0 && requested <= maxcpus) return "";  // the program asked for fewer
  return "peppher: note: this StarPU gives at most " + std::to_string(maxcpus) +
         " CPU workers (it was built with STARPU_MAXCPUS " + std::to_string(maxcpus) +
         ") and this machine has " + std::to_string(cores) +
         " cores: CPU and OpenMP variants use " + std::to_string(maxcpus) +
         " of them. tools/starpu builds a StarPU for every core; docs/ENVIRONMENT.md says "
         "how to use it.\n";
}

void note_capped_cores(int requested) {
  static std::atomic<bool> noted{false};
  if (noted) return;
  // The processing units first (cheap): hwloc's count of cores only when they could exceed
  // the cap.
  const long pus = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (pus <= STARPU_MAXCPUS) return;
  const std::string note = cpu_cap_note(host_cores(), STARPU_MAXCPUS, requested);
  if (!note.empty() && !noted.exchange(true)) std::cerr << note << std::flush;
}

}  // namespace peppher::detail
