// The execution report and the trace under simulation (StarPU on SimGrid, docs/SIMULATION.md):
// the variants do not run there, so their tasks' ends count and name them (simulated_runs.cpp).
#pragma once

#include <starpu.h>

namespace peppher {
class ExecutionCounter;
}

namespace peppher::detail {

/// @brief The counter of implementation @p nimpl of the codelet of interface @p iface on
///        workers of kind @p arch (execution_counter.cpp), or null.
ExecutionCounter* counter_of_implementation(const char* iface, starpu_worker_archtype arch,
                                            unsigned nimpl) noexcept;

/// @brief Simulated StarPU only (STARPU_SIMGRID; null elsewhere, where the variants say
///        themselves that they ran): the counter of the variant StarPU ran @p task as, on
///        @p worker, from the implementation it chose; null when unknown.
ExecutionCounter* simulated_variant(starpu_task* task, int worker) noexcept;

/// @brief Simulated StarPU only (STARPU_SIMGRID; nothing elsewhere): before @p task is
///        submitted, makes its end count the implementation StarPU ran, on the worker that
///        ran it, in the execution report (ExecutionCounter::count_run). The task's own
///        callback still runs, after.
void count_simulated_run(starpu_task* task);

}  // namespace peppher::detail
