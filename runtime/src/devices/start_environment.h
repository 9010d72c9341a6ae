// Environment variables set for StarPU's start only (start_environment.cpp): StarPU 1.3 reads
// some of its settings from the environment alone, once, in starpu_init(); the runtime sets
// them there and gives the program its environment back right after. The user's own value
// always wins: a variable already set is left as it is.
#pragma once

namespace peppher::detail {

/// @brief Sets @p name to @p value until restore_start_environment(), unless the program's
///        environment already has it. Returns whether it was set.
bool set_for_start(const char* name, const char* value);

/// @brief After starpu_init(), started or not: every variable set_for_start() set is unset.
void restore_start_environment() noexcept;

/// @brief Before starpu_init(): StarPU prints none of its notes, in its start or later (its
///        peager scheduler warns that it is "mostly a proof of concept" at every start; the
///        runtime chooses it for OpenMP variants, docs/SELECTION.md), unless STARPU_SILENT
///        is the user's.
void quiet_starpu();

/// @brief Before starpu_init(), in a run with no CUDA worker in one process: hwloc loads
///        none of its plugins for displays, OpenCL devices, PCI and libxml2
///        (HWLOC_PLUGINS_BLACKLIST), nor runs its Linux component's PCI and I/O discovery
///        (HWLOC_COMPONENTS=-linuxio): StarPU places only CUDA devices by them (1.4 also
///        OpenCL GPUs, under STARPU_USE_NUMA only). An empty composed program on 2 CPU
///        workers took 26-41 ms from exec to exit with the plugins, 16-23 ms without
///        (Debian 12, hwloc 2.9, a loaded 2-core machine; the X11 and ICU libraries they pull
///        in); the PCI discovery took 16 ms of LUD's 20 ms start on a virtual machine. The
///        user's own HWLOC_PLUGINS_BLACKLIST or HWLOC_COMPONENTS, or a topology read from
///        HWLOC_XMLFILE, wins.
void skip_device_discovery();

}  // namespace peppher::detail
