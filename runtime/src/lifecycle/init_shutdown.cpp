// init()/shutdown(): starts StarPU from a Config (and the devices' services, devices.h),
// stops it after bringing every live container's data home (data/container_registry.cpp),
// runs the shutdown hooks and prints the execution report.
#include <pthread.h>
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "data/container_registry.h"
#include "devices/devices.h"
#include "lifecycle/environment.h"
#include "lifecycle/lifecycle.h"
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

namespace {

// A start on a thread of its own (init_in_background): the thread, and what it left for the
// program's thread to finish. Guarded by g_lifecycle_mutex; g_starting is read without it.
std::atomic<bool> g_starting{false};
std::thread* g_start_thread = nullptr;  // never destroyed: exit() may come while it runs
std::exception_ptr g_start_error;
std::optional<detail::KeepSignalDispositions> g_start_signals;
std::string g_start_failure;  // why the last background start failed, for later calls
starpu_conf g_conf;           // StarPU keeps pointers into the conf it started with

// Starts StarPU (through the distributed layer when there is one) and the runtime's
// services with g_conf; throws peppher::Error when StarPU cannot start, having stopped what
// it started.
void start_runtime(detail::Distributed* layer, const std::string& trace_file) {
  detail::configure_device_workers(g_conf);  // may load the OpenCL platforms
  const int ret = layer != nullptr ? layer->start(g_conf) : starpu_init(&g_conf);
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
  const std::string trace = env_trace != nullptr && *env_trace != '\0' ? env_trace : trace_file;
  if (!trace.empty()) detail::trace_start(trace_of_this_rank(trace, layer));
  note_worker_layout();
  g_running = true;
  try {
    detail::start_device_services(layer != nullptr);
  } catch (...) {
    g_running = false;
    detail::stop_device_services();
    detail::trace_stop();
    stop_starpu();
    throw;
  }
}

// The background start's end, on the program's thread (under g_lifecycle_mutex): waits for
// it, puts the environment and SIGFPE back as init() does, and throws its error.
void finish_start_locked() {
  if (!g_starting.load()) return;
  g_start_thread->join();
  delete g_start_thread;
  g_start_thread = nullptr;
  detail::restore_environment();
  g_start_signals.reset();
  g_starting = false;
  if (std::exception_ptr error = std::exchange(g_start_error, nullptr)) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      g_start_failure = e.what();
    }
    std::rethrow_exception(error);
  }
}

// exit() without shutdown() while the start runs: the start ends before the program's
// statics are destroyed (its error unreported: the program is leaving anyway).
void finish_start_at_exit() {
  // No start under way (the rule): the mutex is not touched, so an exit() made while
  // shutdown() holds it (from a task it waits for) does not wait on it for ever.
  if (!g_starting.load()) return;
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  try {
    finish_start_locked();
  } catch (...) {
  }
}

// PEPPHER_START=foreground: init_in_background() starts as init() does, returning once
// StarPU runs (for timing a program's steps the way a StarPU program's are timed, after its
// starpu_init()); background (the default) or unset: as asked.
bool start_in_background(bool asked) {
  const char* env = std::getenv("PEPPHER_START");
  if (env == nullptr || *env == '\0') return asked;
  const std::string v = env;
  if (v == "foreground") return false;
  if (v == "background") return asked;
  throw Error("PEPPHER_START: '" + v + "' is neither foreground nor background");
}

void start(const Config& config, bool asked_background) {
  detail::install_uncaught_error_handler();  // an error here or later, uncaught: exit 1
  std::unique_lock<std::mutex> lock(g_lifecycle_mutex);
  if (g_running || g_starting) throw Error("init: the runtime is already running");
  const bool background = start_in_background(asked_background);
  g_start_failure.clear();
  detail::check_environment();  // what StarPU would assert on, PEPPHER_REPORT
  // On this thread, before the program's own force_variant() or set_placement() can come.
  apply_variant_environment();
  apply_placement_environment();
  // pocl's SIGFPE handler, installed while StarPU starts, is undone when the start ends.
  detail::KeepSignalDispositions keep_signals;
  if (starpu_conf_init(&g_conf) != 0) throw Error("init: starpu_conf_init failed");
  const char* env_sched = std::getenv("STARPU_SCHED");
  const bool sched_from_env = env_sched != nullptr && *env_sched != '\0';
  g_scheduler = sched_from_env ? env_sched : config.scheduler;
  g_conf.sched_policy_name = g_scheduler.c_str();
  if (config.ncpus || config.nopencl || config.ncuda) {
    // Explicit counts must beat STARPU_NCPU & co; starpu_conf_init already copied the
    // environment into conf for the counts left unset, and the scheduler is resolved above.
    g_conf.precedence_over_environment_variables = 1;
    if (config.ncpus) g_conf.ncpus = *config.ncpus;
    if (config.nopencl) g_conf.nopencl = *config.nopencl;
    if (config.ncuda) g_conf.ncuda = *config.ncuda;
  }
  detail::configure_devices(g_conf);  // StarPU's environment; the workers: start_runtime()
  // peager is there for combined workers (an OpenMP variant on all CPU cores,
  // docs/SELECTION.md); with fewer than two CPU workers it makes none, and lws keeps the
  // data nearer its tasks. STARPU_SCHED still wins.
  if (!sched_from_env && g_scheduler == "peager" && g_conf.ncpus >= 0 && g_conf.ncpus < 2) {
    g_scheduler = "lws";
    g_conf.sched_policy_name = g_scheduler.c_str();
  }
  detail::apply_calibration_defaults(g_conf);  // models learn from one run (placement.h)
  detail::check_model_files();  // a damaged model or bus file is set aside, not aborted on
  detail::Distributed* layer = detail::distributed();
  // Under MPI the layer starts MPI, which wants the program's own thread.
  if (background && layer == nullptr) {
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit(finish_start_at_exit); });
    g_start_signals.emplace(std::move(keep_signals));
    g_start_thread = new std::thread([trace_file = config.trace_file] {
      pthread_setname_np(pthread_self(), "peppher-start");
      try {
        start_runtime(nullptr, trace_file);
      } catch (...) {
        g_start_error = std::current_exception();
      }
    });
    g_starting = true;
    return;
  }
  try {
    start_runtime(layer, config.trace_file);
  } catch (...) {
    detail::restore_environment();
    throw;
  }
  detail::restore_environment();
}

}  // namespace

void init(const Config& config) {
  start(config, false);
}

void init_in_background(const Config& config) {
  start(config, true);
}

void wait_until_started() {
  if (!g_starting.load()) return;
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  finish_start_locked();
}

namespace detail {

bool started() noexcept {
  return g_running;
}

std::string start_failure() {
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  return g_start_failure;
}

}  // namespace detail

void shutdown() {
  std::lock_guard<std::mutex> lock(g_lifecycle_mutex);
  finish_start_locked();  // a start's error is the program's, reported here at the latest
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
  detail::keep_device_record();                   // what the next run starts (the counts are final)
  if (detail::report_requested()) {
    std::string text = report_string();
    if (detail::devices_skipped_this_run())
      text += "(no device started: the last run's calls all ran best on the host)\n";
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
  return g_running || g_starting;
}

int rank() noexcept {
  return g_rank;
}

int nranks() noexcept {
  return g_nranks;
}

void detail::add_shutdown_hook(void (*run)(void*), void (*drop)(void*), void* hook) {
  const std::shared_ptr<void> held(hook, drop);  // drops the hook if this throws
  std::lock_guard<std::mutex> lock(g_hooks_mutex);
  g_hooks.push_back([run, held] { run(held.get()); });
}

}  // namespace peppher
