// OpenMP glue of OPENMP variants' backend wrappers, kept here so that no header generated
// code includes needs <omp.h>.
#include <omp.h>
#include <starpu.h>

#include "peppher/task.h"

namespace peppher {

void use_combined_worker_threads() {
  const int size = starpu_combined_worker_get_size();
  omp_set_num_threads(size > 0 ? size : 1);
}

void** openmp_task_buffers(void** buffers, void** out) noexcept {
  starpu_task* task = starpu_task_get_current();
  const int worker = starpu_worker_get_id();
  if (task == nullptr || task->cl == nullptr || task->cl->specific_nodes || worker < 0)
    return buffers;
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(worker));
  const int count = STARPU_TASK_GET_NBUFFERS(task);
  if (count > STARPU_NMAXBUFS) return buffers;
  for (int i = 0; i < count; ++i) {
    // Per-worker replicates, which the public API does not reach.
    if (STARPU_TASK_GET_MODE(task, i) & (STARPU_SCRATCH | STARPU_REDUX)) return buffers;
    out[i] = starpu_data_get_interface_on_node(STARPU_TASK_GET_HANDLE(task, i), node);
  }
  return out;
}

}  // namespace peppher
