// Distributed execution over StarPU-MPI (compose --mpi): starting and stopping MPI together
// with StarPU. Declared here without <mpi.h>; defined in the peppher_mpi library, which
// only programs composed with --mpi link.
#pragma once

#include <cstddef>

#include "peppher/init.h"

namespace peppher::mpi {

/// @brief Starts MPI (unless the program already did), then StarPU through StarPU-MPI with
///        @p config. Every rank runs the same program; peppher::rank() and nranks() tell
///        them apart. Started without mpirun the program is one rank. When the environment
///        does not place StarPU's workers (neither STARPU_WORKERS_CPUID nor
///        STARPU_WORKERS_NOBIND is set), the ranks sharing a machine bind their workers to
///        distinct cores, in the order of their rank on that machine.
/// @attention Call once, from the main thread, like peppher::init(). shutdown() finalises
///            MPI when this call initialised it.
void init(const Config& config = {});

/// @brief Bytes of data this rank has sent to other ranks since init(), from StarPU-MPI's
///        counters: 0 unless STARPU_COMM_STATS=1 was set when the program started
///        (PEPPHER_REPORT=1 sets it). For tests and benchmarks: e.g. consecutive calls with
///        the same split send nothing.
/// @attention Collective: waits for every rank's tasks and communications so far, so every
///            rank calls it at the same point of the program (as the sequential program does).
std::size_t bytes_sent();

}  // namespace peppher::mpi
