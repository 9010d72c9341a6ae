// OpenMP glue of OPENMP variants' backend wrappers, kept here so that no header generated
// code includes needs <omp.h>.
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <starpu.h>

#include <new>
#include <vector>

#include "peppher/task.h"

namespace peppher {
namespace {

// The CPUs of worker @p id (StarPU binds it there), empty when StarPU cannot tell.
cpu_set_t cpus_of_worker(int id) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
#ifdef STARPU_HAVE_HWLOC
  hwloc_cpuset_t set = starpu_worker_get_hwloc_cpuset(id);
  if (set == nullptr) return cpus;
  for (int cpu = hwloc_bitmap_first(set); cpu >= 0 && cpu < CPU_SETSIZE;
       cpu = hwloc_bitmap_next(set, cpu)) {
    CPU_SET(cpu, &cpus);
  }
  hwloc_bitmap_free(set);
#else
  (void)id;
#endif
  return cpus;
}

// Starts the team of the combined worker running the calling task, one thread per member:
// this one (the member StarPU runs the task on) and one bound to each other member's cores.
// Left to the kernel, a new thread starts on its creator's core: beside a background OpenCL
// build on the other core, GEMM's second thread shared the first core for its first 10 ms
// (its 0.19 s kernel took 0.2055 s unbound, 0.1931 s bound, medians of 15).
void bind_team(int size) {
  int* members = nullptr;
  int count = 0;
  const int combined = starpu_combined_worker_get_id();
  if (combined < 0 || starpu_combined_worker_get_description(combined, &count, &members) != 0 ||
      count != size || members == nullptr) {
    return;
  }
  // The other members' cores, for OpenMP threads 1, 2, ...
  const int self = starpu_worker_get_id();
  std::vector<cpu_set_t> others;
  for (int i = 0; i < count; ++i) {
    if (members[i] == self) continue;
    others.push_back(cpus_of_worker(members[i]));
    if (CPU_COUNT(&others.back()) == 0) return;
  }
  if (others.size() != static_cast<std::size_t>(size - 1)) return;
#pragma omp parallel num_threads(size)
  {
    const int thread = omp_get_thread_num();
    if (thread > 0 && thread < size) {
      pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t),
                             &others[static_cast<std::size_t>(thread - 1)]);
    }
  }
}

}  // namespace

OpenMpTeam::OpenMpTeam() noexcept : size_(starpu_combined_worker_get_size()) {
  omp_set_num_threads(size_ > 0 ? size_ : 1);
  if (size_ <= 1) return;
  try {
    bind_team(size_);
  } catch (const std::bad_alloc&) {
    // Unbound: the kernel places the team's threads.
  }
}

OpenMpTeam::~OpenMpTeam() {
  if (size_ > 1) omp_pause_resource_all(omp_pause_soft);
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
