// init()/shutdown(): starts StarPU from a Config (and the devices' services, devices.h),
// stops it after bringing every live container's data home (data/container_registry.cpp),
// runs the shutdown hooks and prints the execution report.
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "data/container_registry.h"
#include "devices/devices.h"
#include "lifecycle/environment.h"
#include "lifecycle/model_files.h"
#include "lifecycle/signal_dispositions.h"
#include "observe/trace.h"
#include "observe/uncaught_errors.h"
#include "observe/worker_names.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/raw_cache.h"
#include "peppher/detail/variant_errors.h"
#include "peppher/error.h"
#include "peppher/execution_counter.h"
#include "peppher/init.h"
#include "peppher/placement.h"
#include "peppher/selection.h"

namespace peppher {
namespace {

std::atomic<bool> g_running{false};
// rank() and nranks(): those of the last run, kept after shutdown (docs/MPI.md).
std::atomic<int> g_rank{0};
std::atomic<int> g_nranks{1};
std::mutex g_lifecycle_mutex;  // serializes init/shutdown
std::string g_scheduler;       // StarPU keeps the pointer we pass in its conf

std::atomic<detail::Distributed*> g_distributed{nullptr};

std::mutex g_hooks_mutex;
std::vector<std::function<void()>> g_hooks;

std::string init_error(int ret) {
  if (ret == -ENODEV)
    return "StarPU could not start: no worker is available (starpu_init returned -ENODEV); "
           "check STARPU_NCPU, STARPU_NOPENCL, STARPU_NCUDA and the Config worker counts";
  return "StarPU could not start: starpu_init returned " + std::to_string(ret) + " (" +
         std::strerror(-ret) + ")";
}

// Stops StarPU, through the distributed layer when one started it (which removes it).
void stop_starpu() {
  detail::close_devices();  // cuBLAS handles, host OpenCL links
  if (detail::Distributed* layer = detail::distributed()) {
    layer->stop();
    detail::set_distributed(nullptr);
  } else {
    starpu_shutdown();
  }
}

}  // namespace

namespace detail {

void set_distributed(Distributed* layer) noexcept {
  g_distributed = layer;
}

Distributed* distributed() noexcept {
  return g_distributed;
}

}  // namespace detail

namespace {

// Under MPI with several ranks each writes its own trace: run.json -> run.rank1.json.
std::string trace_of_this_rank(const std::string& path, const detail::Distributed* layer) {
  if (layer == nullptr || layer->nranks() <= 1) return path;
  const std::filesystem::path p(path);
  const std::string name =
      p.stem().string() + ".rank" + std::to_string(layer->rank()) + p.extension().string();
  return (p.parent_path() / name).string();
}

}  // namespace

void init(const Config& config) {
  detail::install_uncaught_error_handler();           // an error here or later, uncaught: exit 1
  const detail::KeepSignalDispositions keep_signals;  // pocl's SIGFPE handler undone at return
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  if (g_running) throw Error("init: the runtime is already running");
  detail::check_environment();  // what StarPU would assert on, PEPPHER_REPORT
  starpu_conf conf;
  if (starpu_conf_init(&conf) != 0) throw Error("init: starpu_conf_init failed");
  const char* env_sched = std::getenv("STARPU_SCHED");
  const bool sched_from_env = env_sched != nullptr && *env_sched != '\0';
  g_scheduler = sched_from_env ? env_sched : config.scheduler;
  conf.sched_policy_name = g_scheduler.c_str();
  if (config.ncpus || config.nopencl || config.ncuda) {
    // Explicit counts must beat STARPU_NCPU & co; starpu_conf_init already copied the
    // environment into conf for the counts left unset, and the scheduler is resolved above.
    conf.precedence_over_environment_variables = 1;
    if (config.ncpus) conf.ncpus = *config.ncpus;
    if (config.nopencl) conf.nopencl = *config.nopencl;
    if (config.ncuda) conf.ncuda = *config.ncuda;
  }
  detail::configure_devices(conf);  // pocl: a CPU worker on every core
  // peager is there for combined workers (an OpenMP variant on all CPU cores,
  // docs/SELECTION.md); with fewer than two CPU workers it makes none, and lws keeps the
  // data nearer its tasks. STARPU_SCHED still wins.
  if (!sched_from_env && g_scheduler == "peager" && conf.ncpus >= 0 && conf.ncpus < 2) {
    g_scheduler = "lws";
    conf.sched_policy_name = g_scheduler.c_str();
  }
  detail::apply_calibration_defaults(conf);  // models learn from one run (placement.h)
  detail::check_model_files();  // a damaged model or bus file is set aside, not aborted on
  detail::Distributed* layer = detail::distributed();
  const int ret = layer != nullptr ? layer->start(conf) : starpu_init(&conf);
  detail::restore_environment();
  if (ret != 0) {
    detail::set_distributed(nullptr);
    throw Error("init: " + init_error(ret));
  }
  g_rank = layer != nullptr ? layer->rank() : 0;
  g_nranks = layer != nullptr ? layer->nranks() : 1;
  detail::cache_worker_names();
  detail::open_devices();  // cuBLAS handles; stop_starpu() releases them
  reset_report();
  const char* env_trace = std::getenv("PEPPHER_TRACE");
  const std::string trace =
      env_trace != nullptr && *env_trace != '\0' ? env_trace : config.trace_file;
  if (!trace.empty()) detail::trace_start(trace_of_this_rank(trace, layer));
  g_running = true;
  try {
    apply_variant_environment();
    apply_placement_environment();
    detail::start_device_services(layer != nullptr);
  } catch (...) {
    g_running = false;
    detail::stop_device_services();
    detail::trace_stop();
    stop_starpu();
    throw;
  }
}

void shutdown() {
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  if (!g_running) return;
  detail::stop_device_services();  // OpenCL builds finished, then the workers resumed
  // Distributed: the ranks compare their programs before waiting for each other's tasks
  // (throws when they differ: then no task can be waited for).
  if (detail::Distributed* layer = detail::distributed())
    layer->synchronise(detail::SyncPoint::Shutdown, 0, 0);
  starpu_task_wait_for_all();
  detail::detach_all_containers();
  detail::raw_cache_clear();
  std::vector<std::function<void()>> hooks;
  {
    std::lock_guard<std::mutex> h(g_hooks_mutex);
    hooks.swap(g_hooks);
  }
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) (*it)();
  starpu_task_wait_for_all();
  detail::trace_stop();
  detail::report_unclaimed_variant_exceptions();  // shutdown must not throw
  if (detail::report_requested()) {
    std::string text = report_string();
    if (detail::Distributed* layer = detail::distributed()) {
      // One block per rank, written at once so that ranks' reports do not interleave.
      text = "rank " + std::to_string(layer->rank()) + " of " + std::to_string(layer->nranks()) +
             ": " + text + layer->report();
    }
    std::cerr << text << std::flush;
  }
  g_running = false;
  const std::vector<std::string> copies = detail::keep_model_copies();  // StarPU rewrites them
  stop_starpu();
  detail::drop_model_copies(copies);
}

bool is_running() noexcept {
  return g_running;
}

int rank() noexcept {
  return g_rank;
}

int nranks() noexcept {
  return g_nranks;
}

void add_shutdown_hook(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(g_hooks_mutex);
  g_hooks.push_back(std::move(hook));
}

}  // namespace peppher
