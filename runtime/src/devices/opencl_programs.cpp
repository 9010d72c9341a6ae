// Building OpenCL programs (opencl.h): one build per program and runtime session, started in
// the background by init() for the programs the generated wrappers registered
// (OpenClProgram::build_at_init), so that a program's first call does not compile it inside
// the application's timed region; a call waits only while its program is still building.
//
// When every OpenCL device runs on the host's cores (pocl) the build competes with the
// calls' own CPU tasks, on the same cores: a cached pocl build of GEMM's program takes about
// 10 ms of CPU, and ran during the 0.2 s of its OpenMP variant on both cores (0.2295 s at
// normal priority, 0.2217 s at nice 19, medians of 10). The builder then runs under Linux's
// SCHED_IDLE policy, the lowest there is: the scheduler weighs it 3 against 1024 for a normal
// thread (nice 19: 15, which still took about 3 ms of that 0.2 s kernel's cores) and never
// lets its wake-up preempt one, and gives it all of an idle core, so that it uses the cores
// no task uses (nice 19 where SCHED_IDLE is refused). A call that waits for it leaves its
// core (and CPU workers block beside a waiting OpenCL task: idle_workers.cpp). With other
// devices the builder keeps the process's priority.
#include "devices/opencl_programs.h"

#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "devices/host_opencl.h"
#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/opencl.h"
#include "peppher/placement.h"

namespace peppher {
namespace {

// Never destroyed: the generated wrappers' OpenClProgram objects are statics that register
// after their own construction, so the registry would be destroyed before them at exit and
// their destructors would erase from a freed vector (ASan: heap-use-after-free at exit).
std::mutex& registry_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::vector<OpenClProgram*>& registry() {
  static auto* programs = new std::vector<OpenClProgram*>;
  return *programs;
}

// The current runtime session (1 for the first init()): a build error belongs to one.
std::atomic<unsigned> g_session{0};

std::thread g_builder;
std::atomic<bool> g_stop_building{false};

std::string folder_of(const char* path) {
  const std::string p = path != nullptr ? path : "";
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash == 0 ? 1 : slash);
}

// The calling thread runs only where no other thread of normal priority wants the core.
void run_only_on_idle_cores() noexcept {
  const sched_param param{};
  if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) != 0)
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
}

}  // namespace

OpenClProgram::~OpenClProgram() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& programs = registry();
  programs.erase(std::remove(programs.begin(), programs.end(), this), programs.end());
}

bool OpenClProgram::build_at_init() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& programs = registry();
  if (std::find(programs.begin(), programs.end(), this) == programs.end()) {
    programs.push_back(this);
  }
  return true;
}

void OpenClProgram::load() {
  std::lock_guard<std::mutex> lock(mutex_);
  queued_.store(false);  // built now, on this thread: before_call sees the lock taken
  if (loaded_.load(std::memory_order_relaxed)) return;
  const unsigned session = g_session.load();
  if (error_session_ == session && !error_.empty()) throw Error(error_);
  try {
    const std::string path =
        file_.name == file_.build_path ? std::string(file_.name) : locate_kernel_file(file_);
    // StarPU puts -I <the file's folder> first; a copy of the kernel file (the program's
    // <program>-kernels/) also finds the headers next to the file compose read.
    std::string options = options_ != nullptr ? options_ : "";
    const std::string build_dir = folder_of(file_.build_path);
    if (path != file_.build_path && !build_dir.empty() &&
        build_dir.find_first_of(" \t") == std::string::npos) {
      options = "-I " + build_dir + (options.empty() ? "" : " ") + options;
    }
    const int ret = starpu_opencl_load_opencl_from_file(
        path.c_str(), &program_, options.empty() ? nullptr : options.c_str());
    if (ret != 0) {
      throw Error(std::string("cannot load OpenCL kernels from ") + path + " (error " +
                  std::to_string(ret) + ")");
    }
  } catch (const Error& e) {
    // Kept for this session: the next get() reports it again without building again (a
    // compiler's log is printed once). Error::what() already carries the "peppher: " prefix.
    const std::string what = e.what();
    const std::string prefix = "peppher: ";
    error_ = what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what;
    error_session_ = session;
    throw;
  }
  loaded_.store(true, std::memory_order_release);
  add_shutdown_hook([this] {
    std::lock_guard<std::mutex> unload_lock(mutex_);
    starpu_opencl_unload_opencl(&program_);
    loaded_.store(false, std::memory_order_release);
  });
}

namespace {

bool runs_only_on_opencl(const starpu_codelet& cl) {
  return detail::codelet_where(cl) == STARPU_OPENCL;
}

}  // namespace

void OpenClProgram::before_call(const starpu_codelet& cl) {
  if (loaded_.load(std::memory_order_acquire) || starpu_opencl_worker_get_count() == 0) return;
  if (!runs_only_on_opencl(cl)) {
    if (queued_.load()) return;  // the background build will get to it
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;  // being built
  }
  get();
}

void OpenClProgram::wait_before_task(const starpu_codelet& cl) noexcept {
  if (!runs_only_on_opencl(cl)) return;
  try {
    get();
  } catch (const Error&) {
    // Kept by the program: the worker's get() reports it as the variant's exception.
  }
}

namespace detail {

void start_opencl_builds() {
  g_session.fetch_add(1);
  if (starpu_opencl_worker_get_count() == 0) return;
  // A copy made by construction: GCC 14 flags the assignment's reallocation as freeing a
  // non-heap pointer (-Wfree-nonheap-object, a false positive).
  const std::vector<OpenClProgram*> programs = [] {
    std::lock_guard<std::mutex> lock(registry_mutex());
    return registry();
  }();
  if (programs.empty()) return;
  for (OpenClProgram* program : programs) program->set_queued(true);
  g_stop_building = false;
  bool host_only = true;  // every OpenCL worker's device runs on the host's cores
  int ids[STARPU_NMAXWORKERS];
  const int n = starpu_worker_get_ids_by_type(STARPU_OPENCL_WORKER, ids, STARPU_NMAXWORKERS);
  for (int i = 0; i < n; ++i)
    host_only = host_only && detail::runs_on_host_cpu(starpu_worker_get_devid(ids[i]));
  g_builder = std::thread([programs, host_only] {
    pthread_setname_np(pthread_self(), "peppher-build");
    if (host_only) run_only_on_idle_cores();
    for (OpenClProgram* program : programs) {
      if (g_stop_building) {  // shutdown: nothing more is built in the background
        program->set_queued(false);
        continue;
      }
      try {
        program->get();
      } catch (const Error&) {
        // Kept by the program: reported by the get() of the first call that needs it.
      }
    }
  });
}

void finish_opencl_builds() noexcept {
  g_stop_building = true;
  if (g_builder.joinable()) g_builder.join();
}

}  // namespace detail
}  // namespace peppher
