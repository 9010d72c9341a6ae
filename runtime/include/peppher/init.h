// Starting and stopping the PEPPHER runtime (StarPU underneath): Config, init/shutdown,
// the RAII Runtime guard and the PEPPHER_INITIALIZE()/PEPPHER_SHUTDOWN() macros.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace peppher {

/// @brief How to start the runtime. Unset fields keep StarPU's defaults and env variables.
struct Config {
  /// @brief StarPU scheduling policy; the environment variable STARPU_SCHED always wins.
  std::string scheduler = "dmda";
  /// @brief Number of CPU workers; when unset, StarPU's STARPU_NCPU (or its default) decides.
  std::optional<int> ncpus;
  /// @brief Number of OpenCL workers; when unset, STARPU_NOPENCL (or the default) decides.
  std::optional<int> nopencl;
  /// @brief Number of CUDA workers; when unset, STARPU_NCUDA (or the default) decides.
  std::optional<int> ncuda;
  /// @brief When not empty, record an execution trace and write it to this file at shutdown
  ///        (Chrome trace-event JSON); PEPPHER_TRACE in the environment, when set, wins.
  std::string trace_file;

  /// @brief The default Config with scheduling policy @p name (generated peppher.h uses it).
  static Config with_scheduler(std::string name) {
    Config c;
    c.scheduler = std::move(name);
    return c;
  }
};

/// @brief Starts StarPU with @p config. Throws peppher::Error naming the cause when StarPU
///        cannot start (e.g. no worker available: -ENODEV) or when already running.
/// @attention Not thread-safe: call from the main thread, before any component call.
void init(const Config& config = {});

/// @brief Starts the runtime as init() does, on a thread of its own, and returns at once: the
///        program's own set-up (reading its input, filling its arrays) runs while StarPU
///        starts (loading pocl's or CUDA's platform alone takes 0.1-0.3 s). The first
///        component call, a container passed to one, wait_until_started() and shutdown()
///        wait for the start to end, and throw its error (no worker available) there; the
///        calls after them say it again. Containers made meanwhile are made as before init()
///        (pinned at their first call). is_running() is true from the return on. Checks of
///        the environment and a second start are errors at once, as with init(). Under MPI
///        (compose --mpi) the start is init()'s. The generated PEPPHER_INITIALIZE() uses it,
///        unless the program's sources call StarPU themselves (docs/DESIGN.md, "Start").
///        PEPPHER_START=foreground in the environment makes it start as init() does.
/// @attention Not thread-safe: call from the main thread, before any component call. A
///        program that calls StarPU itself calls wait_until_started() first.
void init_in_background(const Config& config = {});

/// @brief Waits until a start made by init_in_background() has ended; throws its error.
///        Returns at once when none is under way.
void wait_until_started();

/// @brief Waits for every submitted task, brings every live container's data home into
///        plain (unpinned) host memory, runs the shutdown hooks, prints the execution report
///        when PEPPHER_REPORT=1, then stops StarPU. Does nothing when not running.
///        Distributed (compose --mpi): throws peppher::Error, stopping nothing, when the
///        ranks did not make the same component calls (docs/MPI.md "What each rank may do").
/// @attention Blocks until all tasks finished. Containers stay usable as plain containers.
void shutdown();

/// @brief True between a successful init() (or init_in_background()) and the next shutdown().
bool is_running() noexcept;

/// @brief This process's rank in a distributed run (compose --mpi, started with mpirun):
///        0 .. nranks() - 1, from init() on and still after shutdown() (the last run's, so
///        that a program can print it after PEPPHER_SHUTDOWN()). 0 before init() and in a
///        program composed without --mpi.
int rank() noexcept;

/// @brief The number of processes of a distributed run, from init() on and still after
///        shutdown(); 1 before init(), without --mpi or without mpirun.
int nranks() noexcept;

namespace detail {
/// @brief add_shutdown_hook()'s type-erased half (lifecycle/init_shutdown.cpp): runs
///        @p run(@p hook) at the next shutdown() and @p drop(@p hook) once it ran or was
///        dropped (also when this call throws).
void add_shutdown_hook(void (*run)(void*), void (*drop)(void*), void* hook);
}  // namespace detail

/// @brief Registers @p hook (anything callable without arguments: a lambda, a function, a
///        std::function<void()>) to run at the next shutdown(), after all tasks finished and
///        before StarPU stops (e.g. to unload OpenCL programs). Hooks run in reverse order.
/// @attention Thread-safe.
// A template, not a std::function parameter: <functional> (35k preprocessed lines) would be
// parsed by every source that includes this header, every generated wrapper too.
template <typename Hook>
void add_shutdown_hook(Hook hook) {
  detail::add_shutdown_hook([](void* h) { (*static_cast<Hook*>(h))(); },
                            [](void* h) { delete static_cast<Hook*>(h); },
                            new Hook(std::move(hook)));
}

/// @brief RAII guard: init() in the constructor, shutdown() in the destructor.
class Runtime {
 public:
  /// @brief Starts the runtime (see init()).
  explicit Runtime(const Config& config = {}) { init(config); }
  /// @brief Stops the runtime (see shutdown()); blocks until all tasks finished.
  ~Runtime() { shutdown(); }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
};

}  // namespace peppher

#ifndef PEPPHER_INITIALIZE
/// @brief Starts the runtime with the default Config (scheduler dmda unless STARPU_SCHED).
#define PEPPHER_INITIALIZE() ::peppher::init()
#endif

#ifndef PEPPHER_SHUTDOWN
/// @brief Waits for all tasks, brings all container data home and stops the runtime.
#define PEPPHER_SHUTDOWN() ::peppher::shutdown()
#endif
