// Building OpenCL programs (opencl.h): one build per program and runtime session, started in
// the background by init() for the programs the generated wrappers registered
// (OpenClProgram::build_at_init), so that a program's first call does not compile it inside
// the application's timed region; a call that needs its program before that build is done
// builds it itself (load()).
//
// When every OpenCL device runs on the host's cores (pocl) the build competes with the
// calls' own CPU tasks, on the same cores: a cached pocl build of GEMM's program takes about
// 10 ms of CPU, and ran during the 0.2 s of its OpenMP variant on both cores (0.2295 s at
// normal priority, 0.2217 s at nice 19, medians of 10). The builder then runs under Linux's
// SCHED_IDLE policy, the lowest there is: the scheduler weighs it 3 against 1024 for a normal
// thread (nice 19: 15, which still took about 3 ms of that 0.2 s kernel's cores) and never
// lets its wake-up preempt one, and gives it all of an idle core, so that it uses the cores
// no task uses (nice 19 where SCHED_IDLE is refused), where idle workers leave their cores
// (idle_workers.cpp); a call that needs a program the builder has not finished builds it
// itself (load()). With other devices, or workers that poll on every core, the builder keeps
// the process's priority.
//
// pocl compiles one program at a time (a lock around its compiler), so a call's own build
// waits for the build the builder has under way; on cores that other processes keep busy a
// SCHED_IDLE thread hardly runs, and that wait took 14-37 s where the build needs 1 s of CPU
// (nw's first OpenCL-only run beside a loaded machine: a priority inversion). While a thread
// of normal priority builds a program, or waits for the builder at shutdown, the builder
// runs at the process's priority; it goes back to idle cores before its next program when
// no such thread is left. Raising a thread out of SCHED_IDLE needs root or an RLIMIT_NICE
// that allows its nice value: without either, it stays on idle cores, as before.
#include "devices/opencl_programs.h"

#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "devices/host_opencl.h"
#include "devices/opencl_binaries.h"
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
thread_local bool t_idle_builder = false;  // this thread is g_builder, on idle cores only

// The builder's priority while it builds for idle cores (run_only_on_idle_cores()): lowered
// only while no thread of normal priority builds or waits for it (the comment at the top).
struct BuilderPriority {
  std::mutex mutex;
  pid_t thread = 0;      // the builder's thread id, while it builds for idle cores
  int nice = 0;          // its nice value before it was lowered
  bool lowered = false;  // it runs on idle cores now
  int waiting = 0;       // threads of normal priority that build or wait for it
};
BuilderPriority& builder_priority() {
  static auto* p = new BuilderPriority;  // never destroyed: see registry()
  return *p;
}

// The folder of `path`, without "dir/../" steps (PEPPHER_OUTPUT_DIR "/../kernels/k.cl"), so
// that the build options and the log read plainly.
std::string folder_of(const char* path) {
  const std::string p = path != nullptr ? path : "";
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) return "";
  return std::filesystem::path(p.substr(0, slash == 0 ? 1 : slash)).lexically_normal().string();
}

// The calling thread runs only where no other thread of normal priority wants the core.
void run_only_on_idle_cores() noexcept {
  const sched_param param{};
  if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) != 0)
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
}

// The builder (the calling thread), before each program: back on idle cores unless a thread
// of normal priority builds or waits (it raised the builder).
void builder_to_idle_cores_unless_waited_for() noexcept {
  BuilderPriority& p = builder_priority();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.thread == 0) {
    p.thread = gettid();
    p.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(p.thread));
  }
  if (p.lowered || p.waiting > 0) return;
  run_only_on_idle_cores();
  p.lowered = true;
}

// A thread of normal priority is about to build a program or wait for the builder (pocl
// builds one program at a time): the builder, if it is on idle cores, runs at the process's
// priority until waited_for_builder_ends() leaves no such thread and its program is done.
void waiting_for_builder_begins() noexcept {
  BuilderPriority& p = builder_priority();
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.waiting;
  if (!p.lowered) return;
  const sched_param param{};
  if (sched_setscheduler(p.thread, SCHED_OTHER, &param) == 0) {
    setpriority(PRIO_PROCESS, static_cast<id_t>(p.thread), p.nice);
    p.lowered = false;
  } else if (setpriority(PRIO_PROCESS, static_cast<id_t>(p.thread), p.nice) == 0 &&
             sched_getscheduler(p.thread) != SCHED_IDLE) {
    p.lowered = false;  // it was at nice 19 (SCHED_IDLE was refused)
  }
}

void waiting_for_builder_ends() noexcept {
  BuilderPriority& p = builder_priority();
  std::lock_guard<std::mutex> lock(p.mutex);
  --p.waiting;
}

// The builder has ended: nothing left to raise.
void builder_gone() noexcept {
  BuilderPriority& p = builder_priority();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.thread = 0;
  p.lowered = false;
}

bool readable(const std::string& path) {
  std::ifstream in(path);
  return in.good();
}

std::string device_name(cl_device_id device) {
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  return name;
}

// The build log of `program` on `device`, each diagnostic's file that is the platform's
// copy of the source (pocl: "error: <cache>/kcache/tempfile_XXXX.cl:3:10: ...") given as
// `path`, the file the user edits.
std::string build_log(cl_program program, cl_device_id device, const std::string& path) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
          CL_SUCCESS ||
      size <= 1)
    return "";
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  std::string out;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const size_t temp = line.find("tempfile_");
    const size_t begin = temp == std::string::npos ? temp : line.rfind(' ', temp);
    const size_t end = temp == std::string::npos ? temp : line.find(':', temp);
    if (temp != std::string::npos && end != std::string::npos) {
      const size_t from = begin == std::string::npos ? 0 : begin + 1;
      line = line.substr(0, from) + path + line.substr(end);
    }
    out += line + "\n";
  }
  return out;
}

// Builds the OpenCL C source in `path` with `options` for every OpenCL device StarPU drives,
// into `program` (one cl_program per device, as starpu_opencl_load_opencl_from_file fills
// it, so that starpu_opencl_unload_opencl releases it). Throws Error naming the file, the
// device, the OpenCL error and the build log.
void build_for_opencl_devices(const std::string& path, const std::string& options,
                              starpu_opencl_program& program) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!(in && text << in.rdbuf())) throw Error("cannot read OpenCL kernel file " + path);
  const std::string source = text.str();
  const char* source_text = source.c_str();
  const size_t source_length = source.size();
  const unsigned devices = starpu_opencl_worker_get_count();
  std::vector<cl_program> built;
  const auto release_built = [&built] {
    for (cl_program p : built)
      if (p != nullptr) clReleaseProgram(p);
  };
  for (unsigned dev = 0; dev < devices && dev < STARPU_MAXOPENCLDEVS; ++dev) {
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    starpu_opencl_get_context(static_cast<int>(dev), &context);
    starpu_opencl_get_device(static_cast<int>(dev), &device);
    built.push_back(nullptr);
    if (context == nullptr) continue;  // StarPU skips it too
    const std::string key = detail::opencl_binary_key(path, source, options, device);
    if (cl_program kept = detail::load_kept_binary(key, context, device, options);
        kept != nullptr) {
      built.back() = kept;  // built by an earlier run (opencl_binaries.cpp)
      continue;
    }
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &source_text, &source_length, &err);
    if (err != CL_SUCCESS) {
      release_built();
      throw Error("cannot create an OpenCL program from " + path + " (" + opencl_error_name(err) +
                  ")");
    }
    built.back() = p;
    err = clBuildProgram(p, 1, &device, options.empty() ? nullptr : options.c_str(), nullptr,
                         nullptr);
    if (err == CL_SUCCESS) detail::keep_binary(key, p, device);
    if (err != CL_SUCCESS) {
      const std::string log = build_log(p, device, path);
      release_built();
      throw Error("OpenCL kernel file " + path + " does not build for device '" +
                  device_name(device) + "' (" + opencl_error_name(err) +
                  (options.empty() ? "" : "; options: " + options) + ")" +
                  (log.empty() ? std::string() : ":\n" + log.substr(0, log.size() - 1)));
    }
  }
  for (size_t dev = 0; dev < built.size(); ++dev) program.programs[dev] = built[dev];
}

}  // namespace

struct OpenClProgram::BuildState {
  std::mutex mutex;
  std::condition_variable built;  // a call's or worker's build ended
  bool foreground_build = false;  // a call's or worker's build is under way (mutex)
  std::string error;              // this session's build error, rethrown by the next get()s
  unsigned error_session = 0;     // the session error belongs to (0: none)
};

OpenClProgram::OpenClProgram(const char* path, const char* build_options)
    : OpenClProgram(KernelFile{path, path}, build_options) {}

OpenClProgram::OpenClProgram(KernelFile file, const char* build_options)
    : file_(file), options_(build_options), build_(std::make_unique<BuildState>()) {}

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

// Built outside the build's mutex: the background builder may run only on idle cores (above), so a
// call or worker that needs the program builds its own copy at its own priority rather than wait
// for the builder's, which busy cores can starve for seconds (two ranks beside pocl on two
// cores: 37-41 s a run). One build at normal priority at a time (a caller's, or the builder's
// where it keeps the process's priority): other threads wait for it. The first build to
// finish is kept; a later one is released.
void OpenClProgram::load() {
  const unsigned session = g_session.load();
  const bool foreground = !t_idle_builder;  // the builder at normal priority counts as one
  {
    std::unique_lock<std::mutex> lock(build_->mutex);
    queued_.store(false);  // built now, on this thread
    build_->built.wait(lock, [&] {
      return loaded_.load(std::memory_order_relaxed) || !foreground || !build_->foreground_build;
    });
    if (loaded_.load(std::memory_order_relaxed)) return;
    if (build_->error_session == session && !build_->error.empty()) throw Error(build_->error);
    builds_.fetch_add(1);
    if (foreground) build_->foreground_build = true;
  }
  if (foreground) waiting_for_builder_begins();
  starpu_opencl_program built{};
  std::string error;
  try {
    std::string path =
        file_.name == file_.build_path ? std::string(file_.name) : locate_kernel_file(file_);
    if (const char* dir = std::getenv("STARPU_OPENCL_PROGRAM_DIR");
        dir != nullptr && !path.empty() && path[0] != '/' && !readable(path)) {
      path = std::string(dir) + "/" + path;  // where StarPU's loader looked too
    }
    // -I <the file's folder> first, as StarPU's loader puts it; a copy of the kernel file (the
    // program's <program>-kernels/) also finds the headers next to the file compose read.
    std::string options;
    const auto include = [&options](const std::string& dir) {
      if (dir.empty() || dir.find_first_of(" \t") != std::string::npos) return;
      options += (options.empty() ? "-I " : " -I ") + dir;
    };
    include(folder_of(path.c_str()));
    if (path != file_.build_path) include(folder_of(file_.build_path));
    if (options_ != nullptr && *options_ != '\0')
      options += (options.empty() ? "" : " ") + std::string(options_);
    build_for_opencl_devices(path, options, built);
  } catch (const Error& e) {
    // Error::what() already carries the "peppher: " prefix.
    const std::string what = e.what();
    const std::string prefix = "peppher: ";
    error = what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what;
  }
  if (foreground) waiting_for_builder_ends();
  std::lock_guard<std::mutex> lock(build_->mutex);
  builds_.fetch_sub(1);
  if (foreground) build_->foreground_build = false;
  build_->built
      .notify_all();  // under the mutex: the state they wait for is set below, before it is freed
  if (loaded_.load(std::memory_order_relaxed)) {  // another thread's build finished first
    starpu_opencl_unload_opencl(&built);
    return;
  }
  if (!error.empty()) {
    // Kept for this session: the next get() reports it again without building again, and
    // it is printed now, once (a call that can run elsewhere falls back: before_call).
    if (build_->error_session != session || build_->error.empty()) {
      build_->error = error;
      build_->error_session = session;
      std::fprintf(stderr,
                   "peppher: warning: %s\npeppher: a call forced to this kernel file's variant "
                   "fails with this error; a call other variants can run falls back to them "
                   "once its interface has no OpenCL variant left (a warning names it)\n",
                   build_->error.c_str());
    }
    throw Error(build_->error);
  }
  program_ = built;
  loaded_.store(true, std::memory_order_release);
  add_shutdown_hook([this] {
    std::lock_guard<std::mutex> unload_lock(build_->mutex);
    starpu_opencl_unload_opencl(&program_);
    loaded_.store(false, std::memory_order_release);
  });
}

namespace {

bool runs_only_on_opencl(const starpu_codelet& cl) {
  return detail::codelet_where(cl) == STARPU_OPENCL;
}

// The codelets whose OpenCL variants' programs failed to build this session: the failed
// programs seen with each, and its `where` before OpenCL was taken out of it.
struct FallBack {
  std::set<const OpenClProgram*> failed;
  std::uint32_t where = 0;  // 0: not changed
  bool warned = false;
};
std::mutex g_fall_back_mutex;
std::map<starpu_codelet*, FallBack>& fall_backs() {
  static auto* m = new std::map<starpu_codelet*, FallBack>;  // never destroyed: see registry()
  return *m;
}

size_t opencl_variants(const starpu_codelet& cl) {
  size_t n = 0;
  for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) n += cl.opencl_funcs[i] != nullptr;
  return n;
}

// A call of codelet `cl`, which other workers than OpenCL's can run, meets `program`, whose
// build failed: once every OpenCL variant of `cl` (one program each) failed, StarPU is told
// to run `cl` elsewhere (its `where` without STARPU_OPENCL, until the session ends); until
// then StarPU may still choose a variant whose build failed (that call then fails with the
// build's error). Warns once per codelet.
void fall_back(const starpu_codelet& cl, const OpenClProgram* program) {
  std::lock_guard<std::mutex> lock(g_fall_back_mutex);
  // The generated codelets are mutable globals, passed here as const.
  auto& codelet = const_cast<starpu_codelet&>(cl);
  FallBack& f = fall_backs()[&codelet];
  f.failed.insert(program);
  const size_t total = opencl_variants(cl);
  const char* name = cl.name != nullptr ? cl.name : "(unnamed codelet)";
  if (f.where == 0 && f.failed.size() >= total) {
    f.where = detail::codelet_where(cl);
    codelet.where = f.where & ~static_cast<std::uint32_t>(STARPU_OPENCL);
    std::fprintf(stderr,
                 "peppher: warning: %s: no OpenCL variant's kernels built (above); its calls "
                 "run on its other variants in this session\n",
                 name);
    f.warned = true;
  } else if (f.where == 0 && !f.warned) {
    std::fprintf(stderr,
                 "peppher: warning: %s: %zu of its %zu OpenCL variants' kernels did not build "
                 "(above); a call StarPU gives to one of those fails with the build's error\n",
                 name, f.failed.size(), total);
    f.warned = true;
  }
}

// At the end of a session: the codelets get their OpenCL variants back (the next session
// builds again).
void restore_fall_backs() {
  std::lock_guard<std::mutex> lock(g_fall_back_mutex);
  for (auto& [codelet, f] : fall_backs()) {
    if (f.where != 0) codelet->where = f.where;
  }
  fall_backs().clear();
}

}  // namespace

void OpenClProgram::before_call(const starpu_codelet& cl) {
  if (loaded_.load(std::memory_order_acquire) || starpu_opencl_worker_get_count() == 0) return;
  if (runs_only_on_opencl(cl)) {
    get();  // a build error is the call's
    return;
  }
  if (queued_.load() || builds_.load() > 0) return;  // the background build will get to it
  try {
    get();
  } catch (const Error&) {
    fall_back(cl, this);  // its build failed (printed by load()): the others run the call
  }
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

void start_opencl_builds(bool idle_workers_leave_cores) {
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
  // Where idle workers poll on every core (StarPU-MPI's ranks, PEPPHER_PAUSE_IDLE_WORKERS=0)
  // no core is ever idle: a thread that runs only on idle cores would not finish before
  // shutdown, which waits for it (two ranks beside pocl on two cores: 37-41 s a run).
  const bool idle_priority = host_only && idle_workers_leave_cores;
  g_builder = std::thread([programs, idle_priority] {
    pthread_setname_np(pthread_self(), "peppher-build");
    t_idle_builder = idle_priority;
    for (OpenClProgram* program : programs) {
      if (g_stop_building) {  // shutdown: nothing more is built in the background
        program->set_queued(false);
        continue;
      }
      if (idle_priority) builder_to_idle_cores_unless_waited_for();
      try {
        program->get();
      } catch (const Error&) {
        // Kept by the program: reported by the get() of the first call that needs it.
      }
    }
    if (idle_priority) builder_gone();
  });
}

void finish_opencl_builds() noexcept {
  g_stop_building = true;
  if (g_builder.joinable()) {
    // Shutdown waits for the program under way: at the process's priority.
    waiting_for_builder_begins();
    g_builder.join();
    waiting_for_builder_ends();
  }
  restore_fall_backs();
}

}  // namespace detail
}  // namespace peppher
