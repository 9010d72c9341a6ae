// Idle workers leave the host's cores to the program: between calls, with nothing submitted,
// StarPU's worker threads sleep instead of polling (a StarPU built with non-blocking drivers
// keeps them runnable all the time) and the process uses (almost) no CPU time, and the
// workers still run every later task and data movement.
#include <pthread.h>
#include <sched.h>
#include <starpu.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "peppher/detail/shared_cores.h"
#include "peppher/opencl.h"
#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;

namespace {

// The CPU time (user + system) of the whole process so far, every thread included.
double process_cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

// Sleeps @p seconds (restarting after a signal), so the host asks for no CPU at all.
void sleep_seconds(double seconds) {
  usleep(static_cast<useconds_t>(seconds * 1e6));
}

// One of StarPU's worker threads ("CPU 0", "OpenCL 0", "CUDA 0": StarPU names them): its
// thread id and its state in /proc ('R': running or waiting for a core; 'S': blocked).
struct WorkerThread {
  std::string tid;
  char state = '?';
};

std::vector<WorkerThread> worker_threads() {
  std::vector<WorkerThread> workers;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 >= stat.size())
      continue;
    const std::string name = stat.substr(open + 1, close - open - 1);
    if (name.rfind("CPU ", 0) != 0 && name.rfind("OpenCL ", 0) != 0 && name.rfind("CUDA ", 0) != 0)
      continue;
    workers.push_back({task.path().filename().string(), stat[close + 2]});
  }
  return workers;
}

// How many of StarPU's worker threads are runnable now, and how many exist.
std::pair<int, int> runnable_workers() {
  const std::vector<WorkerThread> workers = worker_threads();
  int runnable = 0;
  for (const WorkerThread& worker : workers) runnable += worker.state == 'R' ? 1 : 0;
  return {runnable, static_cast<int>(workers.size())};
}

// The CPU time (ns) thread @p tid of this process has used so far, or -1 when it cannot be
// read. Read from the thread's CPU clock (the id glibc's pthread_getcpuclockid() makes from a
// thread id: Linux's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)), which counts up to now;
// schedstat's figure lags by up to a scheduler tick (4 ms here) for a thread on a core.
long long thread_cpu_ns(const std::string& tid) {
  const auto id = static_cast<unsigned>(std::stoul(tid));
  const auto clock = static_cast<clockid_t>((~id << 3) | 6u);
  timespec used{};
  if (clock_gettime(clock, &used) != 0) return -1;
  return static_cast<long long>(used.tv_sec) * 1'000'000'000 + used.tv_nsec;
}

}  // namespace

TEST_CASE("the worker threads of an idle runtime sleep", "[idle]") {
  Session session;
  peppher::Vector<std::uint32_t> v(4096, 1u);
  fill(v.handle_for_task(), 3, 1, Where::Any);
  CHECK(v[10] == 13u);
  sleep_seconds(0.2);  // the runtime notices it is idle
  // Polling workers are runnable in every sample, however loaded the machine; sleeping
  // ones in none (a sample may catch one only while something wakes it).
  int samples_with_runnable = 0, workers = 0;
  for (int i = 0; i < 20; ++i) {
    const auto [runnable, count] = runnable_workers();
    workers = count;
    if (runnable > 0) ++samples_with_runnable;
    sleep_seconds(0.01);
  }
  REQUIRE(workers == static_cast<int>(starpu_worker_get_count()));
  CHECK(samples_with_runnable <= 5);
}

namespace {

// What the workers of a runtime just started did: their CPU time (ns, all together) from
// the start until each had been seen blocked once (and 50 ms at least), and whether each was.
struct StartIdle {
  long long cpu_ns = 0;
  int waited_ms = 0;
  bool all_seen_blocked = false;
};

StartIdle workers_from_the_start() {
  peppher::Runtime runtime;
  const std::vector<WorkerThread> workers = worker_threads();
  REQUIRE(workers.size() == starpu_worker_get_count());
  std::vector<long long> start;
  for (const WorkerThread& worker : workers) start.push_back(thread_cpu_ns(worker.tid));
  std::vector<bool> seen_blocked(workers.size(), false);
  auto all_seen_blocked = [&] {
    for (const WorkerThread& now : worker_threads()) {
      for (std::size_t i = 0; i < workers.size(); ++i) {
        if (now.tid == workers[i].tid && now.state != 'R') seen_blocked[i] = true;
      }
    }
    return std::find(seen_blocked.begin(), seen_blocked.end(), false) == seen_blocked.end();
  };
  StartIdle result;
  // 50 ms at least: a worker polling until the watcher's pause (10-20 ms) is seen polling.
  while (result.waited_ms < 2000 && (!all_seen_blocked() || result.waited_ms < 50)) {
    sleep_seconds(0.001);
    ++result.waited_ms;
  }
  result.all_seen_blocked = all_seen_blocked();
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const long long now = thread_cpu_ns(workers[i].tid);
    REQUIRE(start[i] >= 0);
    REQUIRE(now >= start[i]);
    result.cpu_ns += now - start[i];
  }
  return result;
}

}  // namespace

TEST_CASE("the workers of a runtime just started sleep", "[idle][alone]") {
  // Nothing is submitted yet: init pauses the workers, so the program's own code after
  // PEPPHER_INITIALIZE() has the cores at once, not only once the watcher has paused an idle
  // runtime's workers (10-20 ms). starpu_pause() only sets a flag: each worker blocks at its
  // next turn on a core, and on a loaded machine that turn may come 10 ms and more later (the
  // CPU worker, runnable, waited that long behind two nice'd busy loops: counting samples in
  // which a worker was runnable failed then). A worker waiting for a core costs the program
  // nothing, a polling one costs it a core: so the check is the workers' CPU time until each
  // has been seen blocked, their one turn with the pause at init (0-0.41 ms in 126 starts,
  // quiet or beside two busy loops). Without that pause (the watcher's alone), every run
  // failed: 1.3-9.2 ms as started, 7.1-14.9 ms without the yield, quiet; 0.3-3.0 and 1.1-15.4
  // ms loaded; with no pause at all, 6-100 ms, and 2.9-3.0 s in 2 s without the yield.
  // Measured as programs start (idle CPU workers yield to pocl's device on the host's cores)
  // and without that yield: its own blocking, on and off, leaves workers less time to poll
  // before the watcher's pause, which would hide a missing pause at init.
  auto without_yield = [] {
    ScopedEnv no_yield("PEPPHER_YIELD_TO_OPENCL", "0");
    return workers_from_the_start();
  };
  const std::pair<const char*, StartIdle> runs[] = {
      {"as started", workers_from_the_start()}, {"without the yield to OpenCL", without_yield()}};
  for (const auto& [what, run] : runs) {
    INFO(what << ": the workers used " << static_cast<double>(run.cpu_ns) * 1e-6 << " ms of CPU in "
              << run.waited_ms << " ms");
    CHECK(run.all_seen_blocked);
    CHECK(run.cpu_ns < 1'000'000);
  }
}

TEST_CASE("the workers of an idle runtime use no CPU time while the host sleeps", "[idle]") {
  Session session;
  peppher::Vector<std::uint32_t> v(4096, 1u);
  fill(v.handle_for_task(), 3, 1, Where::Any);  // the workers ran, and the data moved
  CHECK(v[10] == 13u);
  sleep_seconds(0.2);  // the runtime notices it is idle
  // Spinning workers would use up to one core each over this second (2 s with a CPU and an
  // OpenCL worker on an idle machine, still far above the bound on a loaded one); paused,
  // the process uses only a watcher's few wake-ups. Measured as CPU time, not wall time.
  const double before = process_cpu_seconds();
  sleep_seconds(1.0);
  const double used = process_cpu_seconds() - before;
  INFO("CPU seconds used by the process during a 1 s sleep: " << used);
  CHECK(used < 0.2);
}

TEST_CASE("paused workers run the next tasks and data movements", "[idle]") {
  Session session;
  peppher::Vector<std::uint32_t> v(1024, 0u);
  for (int round = 0; round < 3; ++round) {
    sleep_seconds(0.05);  // idle long enough for the workers to be paused
    // Submitted to StarPU directly (not through a composed call): the runtime still notices.
    affine(v.handle_for_task(), 2, 1, has_opencl() ? Where::OpenCl : Where::Cpu);
    sleep_seconds(0.05);
    CHECK(v[7] == (1u << (round + 1)) - 1u);  // the host fetches the device's copy
  }
}

TEST_CASE("running workers run no progression hook of the runtime's", "[idle]") {
#ifdef STARPU_NON_BLOCKING_DRIVERS
  // StarPU 1.3 takes a lock 16 times per call of its progression hooks, at every turn of a
  // worker's loop: the runtime registers its hook only while the workers are paused (a thread
  // waiting for data resumes them), or for good while idle CPU workers yield to an OpenCL
  // device on the host's cores (turned off here).
  ScopedEnv no_yield("PEPPHER_YIELD_TO_OPENCL", "0");
  ScopedEnv pausing("PEPPHER_PAUSE_IDLE_WORKERS", nullptr);
  Session session;
  REQUIRE_FALSE(peppher::detail::idle_workers_yield_to_opencl());
  // Whether the hook is registered, once the watcher (every 10 ms) has had 2 s to act.
  auto hook_becomes = [](bool registered) {
    for (int i = 0; i < 200; ++i) {
      if (peppher::detail::idle_progression_hook_registered() == registered) return true;
      sleep_seconds(0.01);
    }
    return false;
  };
  peppher::Vector<std::uint32_t> v(1024, 1u);
  CHECK(hook_becomes(true));                     // paused
  slow_affine(v.handle_for_task(), 2, 1, 1000);  // the watcher resumes the workers for it
  CHECK(hook_becomes(false));
  CHECK(v[5] == 3u);
  CHECK(hook_becomes(true));                      // paused again
  affine(v.handle_for_task(), 2, 1, Where::Any);  // the workers still run what comes
  CHECK(v[5] == 7u);
#endif
}

// ---- Idle CPU workers beside an OpenCL device on the host's own cores (pocl) -------------

namespace {

// The thread id of the worker thread StarPU named @p name ("CPU 0"), or "" when there is none.
std::string thread_named(const std::string& name) {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "comm");
    std::string comm;
    std::getline(in, comm);
    if (comm == name) return task.path().filename().string();
  }
  return "";
}

// An OpenCL task that holds the device until the host says so (g_hold: 1 while it runs, 2
// lets it end), announced as every generated OpenCL wrapper announces its call.
std::atomic<int> g_hold{0};
peppher::OpenClProgram g_no_program("never_built.cl");  // no kernel: never built

void hold_device(void** /*buffers*/, void* /*arg*/) {
  peppher::OpenClLaunch launch(g_no_program, nullptr, "test/hold_device");
  g_hold = 1;
  for (int i = 0; i < 30000 && g_hold.load() != 2; ++i) sleep_seconds(0.001);  // <= 30 s
}

bool device_is_a_cpu() {
  cl_device_id device;
  starpu_opencl_get_device(0, &device);
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  return (type & CL_DEVICE_TYPE_CPU) != 0;
}

// Holding one side of the host's cores in a task: the OpenCL device (an OpenCL task), or the
// CPU worker (a CPU task), while the other side's thread is measured.
enum class Held { Device, CpuWorker };

struct HoldResult {
  double idle_seconds = -1;     // the other side's thread's CPU time while the task held
  bool other_task_ran = false;  // a task for the other side submitted meanwhile ran in time
};

// A CPU task that holds its worker until the host says so (g_hold, as hold_device).
void hold_cpu(void** /*buffers*/, void* /*arg*/) {
  g_hold = 1;
  for (int i = 0; i < 30000 && g_hold.load() != 2; ++i) sleep_seconds(0.001);  // <= 30 s
}

// Holds @p held for @p seconds (after its task started) and measures the CPU time of the
// other side's thread meanwhile (the CPU worker; the OpenCL worker's driver); then submits a
// task for that other side and checks that it runs while the first task still holds.
// Returns nullopt where there is nothing to measure (no CPU worker, no OpenCL device on the
// host's cores).
std::optional<HoldResult> hold(Held held, double seconds) {
  Session session;
  if (!has_opencl() || starpu_cpu_worker_get_count() == 0 || !device_is_a_cpu())
    return std::nullopt;
  const bool device = held == Held::Device;
  const std::string other = thread_named(device ? "CPU 0" : "OpenCL 0");
  REQUIRE_FALSE(other.empty());
  static starpu_codelet hold_device_cl = make_codelet("hold_device", nullptr, hold_device, {});
  static starpu_codelet hold_cpu_cl = make_codelet("hold_cpu", hold_cpu, nullptr, {});
  g_hold = 0;
  struct Release {  // a failed check still lets the task end before the session does
    ~Release() { g_hold = 2; }
  } release;
  starpu_task* task = starpu_task_create();
  task->cl = device ? &hold_device_cl : &hold_cpu_cl;
  REQUIRE(starpu_task_submit(task) == 0);
  while (g_hold.load() != 1) sleep_seconds(0.001);
  sleep_seconds(0.05);  // the other side's poll before it blocks
  HoldResult result;
  const long long before = thread_cpu_ns(other);
  sleep_seconds(seconds);
  const long long after = thread_cpu_ns(other);
  REQUIRE(before >= 0);
  REQUIRE(after >= before);
  result.idle_seconds = static_cast<double>(after - before) * 1e-9;
  // Work for the blocked side: it must still run it, with the first task still holding.
  peppher::Vector<std::uint32_t> v(1024, 1u);
  affine(v.handle_for_task(), 2, 1, device ? Where::Cpu : Where::OpenCl);
  for (int i = 0; i < 10000 && starpu_task_nsubmitted() > 1; ++i) sleep_seconds(0.001);
  result.other_task_ran = starpu_task_nsubmitted() == 1 && g_hold.load() == 1;
  g_hold = 2;
  starpu_task_wait_for_all();
  CHECK(v[5] == 3u);
  return result;
}

// With the blocking turned off, the idle side polls all along: the control shows that the
// measure sees a polling thread (it gets its share of a core: 0.06-0.49 s here, at load
// averages of 8 to 13), and blocked it uses almost none (1-3 ms: a wake-up every 10 ms at
// most). Blocked, it still runs the task submitted while the other side is busy. The
// control turns the idle hook off altogether: an idle worker that yields after each empty
// poll got 1.5 ms of CPU in the 0.5 s beside a two-job compile, no control at all.
void check_blocking(Held held, const char* what) {
  const auto polling = [&] {
    ScopedEnv no_yield("PEPPHER_YIELD_TO_OPENCL", "0");
    ScopedEnv no_pause("PEPPHER_PAUSE_IDLE_WORKERS", "0");
    return hold(held, 0.5);
  }();
  const auto blocked = hold(held, 0.5);
  if (!polling || !blocked) {
    WARN("no CPU worker beside an OpenCL device of type CL_DEVICE_TYPE_CPU: nothing to check");
    return;
  }
  INFO(what << " in 0.5 s: polling " << polling->idle_seconds << " s, blocked "
            << blocked->idle_seconds << " s");
  CHECK(blocked->idle_seconds < 0.025);
  CHECK(polling->idle_seconds > 5 * blocked->idle_seconds);
  CHECK(polling->other_task_ran);
  CHECK(blocked->other_task_ran);
}

}  // namespace

TEST_CASE("an idle CPU worker leaves the cores to an OpenCL task on the host's cores",
          "[idle][opencl]") {
  check_blocking(Held::Device, "the CPU worker's CPU time during an OpenCL task");
}

TEST_CASE("the driver of an OpenCL device on the host's cores leaves them to a CPU task",
          "[idle][opencl]") {
  check_blocking(Held::CpuWorker, "the OpenCL driver's CPU time during a CPU task");
}

namespace {

std::atomic<int> g_busy{0};  // 1: the busy task runs; 2: it may end

void busy_until_released(void* /*buffers*/[], void* /*cl_arg*/) {
  g_busy = 1;
  while (g_busy.load() != 2) {
  }
}

// The share of a core a host thread bound to @p cpu gets over @p seconds of spinning.
double host_share_of_core(int cpu, double seconds) {
  double share = 0;
  std::thread host([&] {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
    timespec wall0{}, cpu0{}, wall{}, used{};
    clock_gettime(CLOCK_MONOTONIC, &wall0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
    auto since = [](const timespec& a, const timespec& b) {
      return static_cast<double>(b.tv_sec - a.tv_sec) +
             static_cast<double>(b.tv_nsec - a.tv_nsec) * 1e-9;
    };
    do {
      clock_gettime(CLOCK_MONOTONIC, &wall);
    } while (since(wall0, wall) < seconds);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
    share = since(cpu0, used) / since(wall0, wall);
  });
  host.join();
  return share;
}

// While one CPU worker runs a task (so the runtime is busy and its workers are not paused),
// a host thread spins on the core of the other, idle, CPU worker: the share of that core it
// gets. Empty when the run has fewer than 2 CPU workers.
std::optional<double> host_share_beside_idle_worker() {
  peppher::Runtime runtime(two_cpus());
  int workers[2];
  if (starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, workers, 2) != 2) return std::nullopt;
  hwloc_cpuset_t idle_cpus = starpu_worker_get_hwloc_cpuset(workers[1]);
  const int idle_cpu = hwloc_bitmap_first(idle_cpus);
  hwloc_bitmap_free(idle_cpus);
  if (idle_cpu < 0) return std::nullopt;
  static starpu_codelet busy_cl = [] {
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.name = "busy_until_released";
    cl.cpu_funcs[0] = busy_until_released;
    return cl;
  }();
  g_busy = 0;
  starpu_task* task = starpu_task_create();
  task->cl = &busy_cl;
  task->execute_on_a_specific_worker = 1;
  task->workerid = static_cast<unsigned>(workers[0]);
  REQUIRE(starpu_task_submit(task) == 0);  // paused workers are resumed within 10 ms
  while (g_busy.load() != 1) sleep_seconds(0.001);
  const double share = host_share_of_core(idle_cpu, 0.3);
  g_busy = 2;
  starpu_task_wait_for_all();
  return share;
}

}  // namespace

TEST_CASE("an idle CPU worker gives its core to a host thread that wants it", "[alone]") {
  // The control: with PEPPHER_PAUSE_IDLE_WORKERS=0 the runtime leaves StarPU's idle workers
  // alone, and the polling worker takes its share of the core (about half on a quiet
  // machine; 0.98 beside a yielding one). Another process on the same core moves both shares
  // (ctest runs this part alone): up to three tries, one of which must show the difference.
  std::string seen;
  bool yielded = false;
  for (int attempt = 0; attempt < 3 && !yielded; ++attempt) {
    const auto polling = [] {
      ScopedEnv no_pause("PEPPHER_PAUSE_IDLE_WORKERS", "0");
      return host_share_beside_idle_worker();
    }();
    const auto yielding = host_share_beside_idle_worker();
    if (!polling || !yielding) {
      WARN("fewer than 2 CPU workers: nothing to check");
      return;
    }
    seen += " beside a polling worker " + std::to_string(*polling) + ", beside a yielding one " +
            std::to_string(*yielding) + ";";
    yielded = *yielding > 1.3 * *polling;
  }
  INFO("share of the idle worker's core a spinning host thread got:" << seen);
  CHECK(yielded);
}
