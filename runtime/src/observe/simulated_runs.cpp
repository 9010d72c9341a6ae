// The execution report under simulation (simulated_runs.h). StarPU on SimGrid replaces a
// task's codelet function by a simulated sleep, so the generated variant wrappers, which count
// their runs (ExecutionCounter::hit), never run; a callback at the task's end counts instead,
// from the codelet's name (the interface), the implementation StarPU chose and the worker;
// the trace names the variant of a task the same way (simulated_variant).
#include "observe/simulated_runs.h"

#include <cstdlib>

#include "peppher/execution_counter.h"

namespace peppher::detail {

#ifdef STARPU_SIMGRID
namespace {

// The task, and its own callback, called after the count.
struct Chained {
  starpu_task* task;
  void (*callback)(void*);
  void* arg;
};

// Completion callback, on the worker that ran the task (a SimGrid actor).
void count_then_chain(void* arg) {
  const Chained chained = *static_cast<Chained*>(arg);
  std::free(arg);
  starpu_task* task = chained.task;
  const int worker = starpu_worker_get_id();
  if (ExecutionCounter* c = simulated_variant(task, worker)) c->count_run(worker);
  task->callback_arg = chained.arg;  // freed with the task if StarPU owns it
  if (chained.callback != nullptr) chained.callback(chained.arg);
}

}  // namespace

ExecutionCounter* simulated_variant(starpu_task* task, int worker) noexcept {
  if (task == nullptr || task->cl == nullptr || worker < 0) return nullptr;
  return counter_of_implementation(task->cl->name, starpu_worker_get_type(worker),
                                   starpu_task_get_implementation(task));
}

void count_simulated_run(starpu_task* task) {
  auto* chained = static_cast<Chained*>(std::malloc(sizeof(Chained)));
  if (chained == nullptr) return;  // not counted: the report misses one run
  *chained = Chained{task, task->callback_func, task->callback_arg};
  task->callback_func = count_then_chain;
  task->callback_arg = chained;
}
#else
ExecutionCounter* simulated_variant(starpu_task* /*task*/, int /*worker*/) noexcept {
  return nullptr;
}
void count_simulated_run(starpu_task* /*task*/) {}
#endif

}  // namespace peppher::detail
