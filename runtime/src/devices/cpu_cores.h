// The host's cores as StarPU counts them, and the note init() prints when this StarPU cannot
// give each a CPU worker (cpu_cores.cpp; peppher/detail/cpu_cap.h).
#pragma once

namespace peppher::detail {

/// @brief The host's cores and processing units, as hwloc counts them (0 when it cannot).
struct HostCpus {
  int cores = 0;
  int pus = 0;
};
HostCpus host_cpus();

/// @brief The cores StarPU counts (hwloc's cores, else its processing units), times
///        STARPU_NTHREADS_PER_CORE as StarPU multiplies them; 0 when hwloc cannot tell.
int host_cores();

/// @brief After starpu_init(): once per process, a note on stderr when the machine has more
///        cores than this StarPU's STARPU_MAXCPUS and @p requested CPU workers (-1: one per
///        core) were not fewer.
void note_capped_cores(int requested);

}  // namespace peppher::detail
