// The device hooks (devices/devices.h): each lifecycle step calls the drivers that take part
// in it, in order; and the transfer prediction that the drivers correct.
#include "devices/devices.h"

#include <cstddef>

#include "devices/cpu_cores.h"
#include "devices/cuda.h"
#include "devices/host_opencl.h"
#include "devices/idle_workers.h"
#include "devices/opencl_platforms.h"
#include "devices/opencl_programs.h"
#include "devices/openmp_threads.h"
#include "devices/start_environment.h"
#include "devices/unused_devices.h"
#include "peppher/detail/distributed.h"
#include "peppher/execution_counter.h"
#include "peppher/placement.h"

namespace peppher::detail {

namespace {
int g_requested_cpus = -1;  // conf.ncpus as configured (init() runs under its mutex)

#ifndef STARPU_SIMGRID
// Whether this start will have no CUDA worker.
bool no_cuda_workers(const starpu_conf& conf) {
#ifdef STARPU_USE_CUDA
  return conf.ncuda == 0;
#else
  (void)conf;
  return true;
#endif
}
#endif
}  // namespace

void configure_devices(starpu_conf& conf) {
  // StarPU prints nothing by default, in its start or later: its notes concern the runtime's
  // use of StarPU, not the program (binding beside pocl, history entries flushed when one
  // footprint holds calls of different work, "not finished calibrating"), and the runtime
  // reports its own decisions (PEPPHER_REPORT, PEPPHER_TRACE). STARPU_SILENT=0 shows them.
  quiet_starpu();
  skip_devices_unused_last_run(conf);  // before the platforms are hidden or looked at
  skip_unused_opencl_platforms(conf);  // first: nothing may load them
#ifndef STARPU_SIMGRID
  // One process with no CUDA worker: StarPU places only CUDA devices by hwloc's PCI and I/O
  // objects (1.3; 1.4 also OpenCL GPUs, but only under STARPU_USE_NUMA), so a CPU-only or
  // OpenCL run needs none of them (under --mpi, Open MPI's own topology, read in the same
  // start, places its network devices).
  if (no_cuda_workers(conf) && distributed() == nullptr) skip_device_discovery();
#endif
}

void configure_device_workers(starpu_conf& conf) {
#ifndef STARPU_SIMGRID
  configure_for_host_opencl(conf);  // pocl: a CPU worker on every core
#endif
  // Simulated (StarPU on SimGrid, docs/SIMULATION.md): the workers are the recorded
  // machine's (STARPU_HOSTNAME), not this host's OpenCL devices and cores.
  g_requested_cpus = conf.ncpus;
}

void keep_device_record() {
  if (distributed() != nullptr) return;  // every rank starts its devices
  const RunCounts counts = run_counts();
  const bool had_devices = starpu_opencl_worker_get_count() + starpu_cuda_worker_get_count() > 0;
  keep_device_record(counts.all, counts.on_devices, had_devices);
}

void restore_environment() noexcept {
  restore_start_environment();
}

void open_devices() {
  note_capped_cores(g_requested_cpus);  // StarPU's own warning came during the quiet start
  open_cuda();
}

void start_device_services(bool distributed) {
#ifdef STARPU_SIMGRID
  // Simulated: no kernel runs, so no OpenCL program is built, and the bus is the recorded
  // machine's model, not measured here; StarPU's simulated drivers block when idle (SimGrid
  // builds have blocking drivers), so there is nothing to pause. These services would also
  // run outside SimGrid's actors (a thread of our own), which StarPU does not allow there.
  (void)distributed;
#else
  calibrate_host_opencl_links();
  const bool idle_cores = start_idle_pausing(distributed);
  start_opencl_builds(idle_cores);
#endif
}

void stop_device_services() noexcept {
  // The calling thread's OpenMP team (OpenMP variants run inline, OpenMpHere) would spin on
  // the cores the workers need to stop: libgomp's idle threads spin 300,000 turns after a
  // parallel region, and LUD's shutdown waited 3 ms on 2 cores for a worker to get a core.
  // Only this thread's team ends (a variant's team in a task is its worker's).
  openmp_end_team();
  // A build still running gets the cores that idle workers, still paused, leave (beside
  // pocl, workers resumed first polled on both cores and left it 1.2 s to finish).
  finish_opencl_builds();
  stop_idle_pausing();
}

void close_devices() noexcept {
  forget_host_opencl_links();
  close_cuda();
}

double transfer_predict_us(unsigned src, unsigned dst, std::size_t bytes) noexcept {
  if (src == dst) return 0;
  const double host_opencl = host_opencl_copy_us(src, dst, bytes);
  if (host_opencl >= 0) return host_opencl;
  return cuda_transfer_us(src, dst, starpu_transfer_predict(src, dst, bytes));
}

}  // namespace peppher::detail
