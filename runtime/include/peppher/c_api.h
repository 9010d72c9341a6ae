/* The runtime's C interface: what a generated peppher.h uses when the file including it is
   C (C99 on) or C++ older than C++17, where <peppher/runtime.h> cannot be included.
   Valid C99 and C++11; the library itself is C++17. */
#ifndef PEPPHER_C_API_H
#define PEPPHER_C_API_H

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Starts the runtime with StarPU scheduling policy @p scheduler (STARPU_SCHED in the
 *         environment still wins), as peppher::init(Config::with_scheduler(scheduler)).
 *  @attention On failure (StarPU cannot start, already running) prints the reason to stderr
 *             and ends the program with exit status 1: a C caller has no exceptions. */
void peppher_initialize(const char* scheduler);

/** @brief peppher_initialize() for a composition made with --mpi: starts MPI, StarPU-MPI and
 *         the runtime, as peppher::mpi::init(Config::with_scheduler(scheduler)). Defined in
 *         the StarPU-MPI layer's library (libpeppher_mpi), which such programs link.
 *  @attention On failure prints the reason to stderr and ends the program with exit status 1. */
void peppher_mpi_initialize(const char* scheduler);

/** @brief Waits for every task, prints the report when PEPPHER_REPORT=1, stops the runtime
 *         (peppher::shutdown()). Does nothing when the runtime is not running. */
void peppher_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
