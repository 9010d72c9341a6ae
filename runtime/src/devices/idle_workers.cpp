// Idle workers that leave the host's cores to the application (see idle_workers.h).
//
// StarPU 1.3 built with STARPU_NON_BLOCKING_DRIVERS (Debian's and Ubuntu's packages are)
// never lets an idle worker sleep: it spins on `pause` instructions, so between calls the
// program's own host code shares its cores with every worker (a host loop ran 3x slower
// with 2 CPU workers up on 2 cores). No environment variable changes that: STARPU_BACKOFF_MIN
// and STARPU_BACKOFF_MAX only bound the number of `pause` instructions between two polls.
// starpu_pause() is StarPU's answer for "StarPU is used during only a part of the
// execution": paused workers block on a condition variable at the top of their loop.
//
// So the workers start paused (nothing is submitted at init), a watcher thread pauses them
// again once nothing has been submitted for a while and no task is in flight, and they are
// resumed before anything needs them again:
// - the runtime's own task submissions call wake_workers() first;
// - a synchronous data request (starpu_data_acquire, unregister) waits in a loop that runs
//   StarPU's progression hooks: ours resumes the workers, since only they move device data;
// - a task submitted some other way (a program using StarPU directly) is noticed by the
//   watcher, which resumes the workers when StarPU counts submitted tasks.
// While they run, an idle CPU worker yields its core (sched_yield in StarPU's idle hook) to
// any thread that wants it: the calling thread, preempted by the workers it resumed or woken
// by its task's end, otherwise waited for a time slice behind two polling workers.
//
// Idle CPU workers beside an OpenCL device that runs on the same cores (pocl: its device is
// CL_DEVICE_TYPE_CPU, its work-items run on threads of its own on every core). A task is in
// flight then, so the workers are not paused, and an idle CPU worker polls on a core the
// device's threads need: GEMM's kernel took 0.39-0.44 s with the CPU worker up, 0.25-0.30 s
// without it. starpu_pause() would stop the OpenCL worker too, so the CPU worker blocks
// itself instead, in StarPU's idle hook (which a CPU worker calls after a poll that found no
// task), while an OpenCL task runs on such a device (OpenClTaskScope, held by every
// generated OpenCL wrapper) or the device's driver thread is away from its polling loop
// (copying operands into the device: a memcpy on that thread), and it has been idle for
// kSpinBeforeYield. It polls again as soon as something may have given it work: each of
// these bumps g_generation and wakes it,
// - the device's task ends, or its driver is back in its loop after kDriverAway;
// - the runtime submitted a task (task_submitted(), after starpu_task_submit);
// - a CPU worker finished a task, or a thread other than an idle CPU worker made StarPU's
//   data requests progress (the OpenCL worker between two tasks: the transfers a CPU task
//   waits for, the tasks its last one released): both run our progression hook;
// - the watcher saw StarPU's count of submitted or of ready tasks change (StarPU used
//   directly; a task released by a host thread's starpu_data_release), within kWatchPeriod;
// - at the latest after kMaxYield (a safety net: the events above cover every way we know).
// A worker blocks only while g_generation holds the value it read when it last left the
// hook, that is before its last poll: an event between the poll and the block is not missed.
// Events while no such task runs need no bump: opencl_task_begins() bumps.
//
// The other way round: a CPU worker on every core beside such a device (host_opencl.cpp), so
// while a CPU task runs, the device's driver thread is one poller too many (a sequential
// variant on one of 2 cores shared its core with an idle CPU worker and the driver: 2.0x the
// time of the sequential original). So the driver blocks too, in the progression hook it
// runs at every turn of its loop, once it has polled kSpinBeforeYield without any event while
// a CPU worker is away from its loop (in a task), until the next event (its own work comes
// with one) or that task's end.
#include "devices/idle_workers.h"

#include <sched.h>
#include <starpu.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "devices/devices.h"
#include "devices/host_opencl.h"
#include "peppher/detail/shared_cores.h"

namespace peppher::detail {
namespace {

using Clock = std::chrono::steady_clock;

// How long the runtime must have been idle (no submission, no task in flight) before the
// workers are paused, and how often the watcher looks. Each look preempts a thread on a busy
// core: every 2 ms, it interrupted the second thread of bench/original's OpenMP GEMM 100
// times in 0.2 s (the composed call 0.2090 s, without the watcher 0.2056 s, medians of 15).
constexpr auto kIdleBeforePause = std::chrono::milliseconds(10);
constexpr auto kWatchPeriod = std::chrono::milliseconds(10);
// How long an idle CPU worker polls beside a running OpenCL task on the host's cores before
// it blocks, and its longest block. Short tasks keep the quick hand-over of a polling worker:
// the ODE app's OpenCL tasks take 40-60 us between CPU tasks of 2-5 us, and blocking after
// 100 us made it up to 10 % slower (a blocked worker takes its time to wake up); the gain is
// in tasks of milliseconds and more.
constexpr auto kSpinBeforeYield = std::chrono::milliseconds(1);
constexpr auto kMaxYield = std::chrono::milliseconds(10);
// How long such a device's driver thread may stay out of its polling loop (our progression
// hook, which it calls at every turn, microseconds apart) before idle CPU workers take it as
// busy: copying a call's operands into the device (a memcpy on that thread: 151 MB took 70 ms
// alone and 180-220 ms beside two polling CPU workers on 2 cores), or preempted.
constexpr auto kDriverAway = std::chrono::microseconds(200);

std::mutex g_mutex;  // g_paused's changes, the watcher's start and stop
std::condition_variable g_stop_cv;
bool g_stop = false;
std::thread g_watcher;
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_pausing{false};
std::atomic<bool> g_paused{false};
std::atomic<Clock::rep> g_last_activity{0};
int g_hook = -1;

// Yielding to an OpenCL device on the host's cores (see above).
std::atomic<bool> g_yielding{false};
std::atomic<bool> g_shares_cores[STARPU_MAXOPENCLDEVS];  // by StarPU OpenCL device number
std::atomic<int> g_device_tasks{0};                      // counted tasks running
std::atomic<std::uint64_t> g_generation{1};
std::atomic<int> g_blocked{0};  // CPU workers blocked in the idle hook
// Per device that shares the cores: when its driver thread last ran our progression hook
// (0: blocked in it, or none). Per CPU worker (by worker id): when it last ran one of our
// hooks (0: blocked in one); g_cpu_workers lists them (set before the hooks are registered).
std::atomic<Clock::rep> g_driver_seen[STARPU_MAXOPENCLDEVS];
std::atomic<Clock::rep> g_cpu_seen[STARPU_NMAXWORKERS];
std::vector<int> g_cpu_workers;
std::mutex g_yield_mutex;
std::condition_variable g_yield_cv;
int g_idle_hook = -1;
// Per CPU worker: its last poll found no task; g_generation when it last left the idle
// hook; since when it has been idle while a counted task runs (0: it is not).
thread_local bool t_idle_last = false;
thread_local std::uint64_t t_seen = 0;
thread_local Clock::rep t_idle_since = 0;
// The device that shares the cores whose driver this thread is (-1: none; -2: not looked up).
thread_local int t_driver_of = -2;
thread_local int t_worker_id = -2;  // StarPU's id of this thread's worker (-1: none)

Clock::rep now_rep() noexcept {
  return Clock::now().time_since_epoch().count();
}

int driver_of_this_thread() noexcept {
  if (t_driver_of == -2) {
    const int id = starpu_worker_get_id();
    const int devid = id >= 0 && starpu_worker_get_type(id) == STARPU_OPENCL_WORKER
                          ? starpu_worker_get_devid(id)
                          : -1;
    t_driver_of =
        devid >= 0 && devid < STARPU_MAXOPENCLDEVS && g_shares_cores[devid].load() ? devid : -1;
  }
  return t_driver_of;
}

int worker_id() noexcept {
  if (t_worker_id == -2) t_worker_id = starpu_worker_get_id();
  return t_worker_id;
}

// This CPU worker ran a hook of ours at @p now (0: it is about to block). Only read while
// yielding to a device on the host's cores: otherwise nothing to note (no clock read on the
// polling path).
void cpu_seen(Clock::rep now) noexcept {
  const int id = worker_id();
  if (id >= 0 && id < STARPU_NMAXWORKERS) g_cpu_seen[id].store(now, std::memory_order_relaxed);
}

// Whether a CPU worker runs a task (it has been out of its polling loop for kDriverAway: a
// task, the members of a parallel task included, or a preemption).
bool cpu_task_running(Clock::rep now) noexcept {
  for (const int id : g_cpu_workers) {
    const Clock::rep seen = g_cpu_seen[id].load(std::memory_order_relaxed);
    if (seen != 0 && Clock::duration{now - seen} > kDriverAway) return true;
  }
  return false;
}

// Whether an idle CPU worker should leave its core: a counted OpenCL task runs on a device
// that shares the cores, or such a device's driver has been out of its loop for kDriverAway.
bool cores_wanted(Clock::rep now) noexcept {
  if (g_device_tasks.load() > 0) return true;
  for (int devid = 0; devid < STARPU_MAXOPENCLDEVS; ++devid) {
    if (!g_shares_cores[devid].load(std::memory_order_relaxed)) continue;
    const Clock::rep seen = g_driver_seen[devid].load(std::memory_order_relaxed);
    if (seen != 0 && Clock::duration{now - seen} > kDriverAway) return true;
  }
  return false;
}

unsigned progression_hook(void* unused);

void note_activity() noexcept {
  g_last_activity.store(now_rep());
}

// Our progression hook is registered only while it has something to do: always while idle
// CPU workers yield to a device on the host's cores, otherwise only while the workers are
// paused (a thread waiting for a data request resumes them). StarPU 1.3 takes a read lock 16
// times per call of its progression hooks, at every turn of every worker's loop: registered
// for good, that made the ODE app's CPU worker 5 % busier than its hand-written version's.
// Under g_mutex.
void register_hook_locked() {
  if (g_hook < 0) g_hook = starpu_progression_hook_register(progression_hook, nullptr);
}

void deregister_hook_locked() {
  if (g_hook < 0 || g_yielding.load(std::memory_order_relaxed)) return;
  starpu_progression_hook_deregister(g_hook);
  g_hook = -1;
}

void pause_locked() {
  register_hook_locked();  // first: a waiting thread must see it once the workers stop
  starpu_pause();
  g_paused.store(true);
}

void resume_locked() {
  if (!g_paused.load(std::memory_order_relaxed)) return;
  starpu_resume();
  g_paused.store(false);
  deregister_hook_locked();
}

// Something may have given an idle CPU worker work: the blocked ones poll again.
void wake_yielding() noexcept {
  g_generation.fetch_add(1);
  if (g_blocked.load() == 0) return;
  { std::lock_guard<std::mutex> lock(g_yield_mutex); }  // a worker between check and wait
  g_yield_cv.notify_all();
}

void wake_yielding_if_tasks() noexcept {
  if (g_device_tasks.load() > 0 || g_blocked.load() > 0) wake_yielding();
}

// The driver of device @p devid on the host's cores, polling with nothing to do: after
// kSpinBeforeYield without any event (a bump of g_generation), it leaves its core to a CPU
// worker's task, until the next event or that task's end (kMaxYield at the latest). A task
// for it comes with an event (its submission, or the end of the task it waited for), and so
// does a transfer it must make for a CPU task (the waiting worker's progression hook).
void driver_may_yield(int devid, Clock::rep now) {
  const std::uint64_t generation = g_generation.load();
  if (generation != t_seen || t_idle_since == 0) {
    t_seen = generation;
    t_idle_since = now;
    return;
  }
  if (Clock::duration{now - t_idle_since} < kSpinBeforeYield || !cpu_task_running(now)) return;
  {
    std::unique_lock<std::mutex> lock(g_yield_mutex);
    g_blocked.fetch_add(1);
    g_driver_seen[devid].store(0);  // not away: idle CPU workers keep polling
    g_yield_cv.wait_for(lock, kMaxYield, [] {
      return g_generation.load() != t_seen || !g_yielding.load() || !cpu_task_running(now_rep());
    });
    g_blocked.fetch_sub(1);
  }
  // Woken by an event: the next turn sees it and polls kSpinBeforeYield again; after
  // kMaxYield without one, it blocks again at once.
  g_driver_seen[devid].store(now_rep());
}

// A StarPU progression hook (registered as register_hook_locked says): called by spinning
// workers at every turn of their loop (cheap: a few loads, a clock read only while yielding
// to a device on the host's cores) and by any other thread while it waits for a data
// request, which only a running worker may complete (the runtime is not idle then).
unsigned progression_hook(void* /*unused*/) {
  const bool yielding = g_yielding.load(std::memory_order_relaxed);
  if (worker_id() < 0) {
    wake_workers();
    wake_yielding_if_tasks();
  } else if (const int devid = driver_of_this_thread(); devid >= 0) {
    // The driver of a device on the host's cores, back in its loop: after a copy (or a
    // preemption) the CPU workers that left it the core poll again.
    const Clock::rep now = now_rep();
    const Clock::rep seen = g_driver_seen[devid].exchange(now, std::memory_order_relaxed);
    if (seen != 0 && Clock::duration{now - seen} > kDriverAway) {
      wake_yielding();
      t_idle_since = 0;
    } else if (yielding) {
      driver_may_yield(devid, now);
    }
  } else if (t_idle_last) {
    t_idle_last = false;  // an idle CPU worker polls again
    if (yielding) cpu_seen(now_rep());
  } else {
    t_idle_since = 0;
    if (yielding) cpu_seen(now_rep());
    wake_yielding_if_tasks();  // a CPU worker ran a task, or waits for its task's data
  }
  return 1;  // "may block": only read by drivers built blocking
}

// StarPU's idle hook: a CPU worker's poll found no task. Beside a busy device on the host's
// cores it blocks once it has polled kSpinBeforeYield; otherwise it gives its core to any
// other thread that waits for one (sched_yield): a polling worker kept the calling thread,
// just preempted by the workers it resumed or woken by the end of its task, off both cores
// of a 2-core machine (GEMM's call submitted 1.6-6 ms late; 0.3-0.4 ms with the yield).
unsigned idle_hook(void* /*unused*/) {
  t_idle_last = true;
  const Clock::rep now = now_rep();
  const bool device_busy = g_yielding.load(std::memory_order_relaxed) && cores_wanted(now);
  if (!device_busy) {
    t_idle_since = 0;
  } else if (t_idle_since == 0) {
    t_idle_since = now;
  }
  if (!device_busy || Clock::duration{now - t_idle_since} < kSpinBeforeYield) {
    sched_yield();
  } else {
    std::unique_lock<std::mutex> lock(g_yield_mutex);
    g_blocked.fetch_add(1);
    cpu_seen(0);  // blocked: no task of its own that the device's driver should yield to
    g_yield_cv.wait_for(lock, kMaxYield, [] {
      return g_generation.load() != t_seen || !g_yielding.load() || !cores_wanted(now_rep());
    });
    g_blocked.fetch_sub(1);
  }
  cpu_seen(now_rep());
  t_seen = g_generation.load();
  return 1;
}

void watch() {
  std::unique_lock<std::mutex> lock(g_mutex);
  int last_submitted = 0, last_ready = 0;
  while (!g_stop_cv.wait_for(lock, kWatchPeriod, [] { return g_stop; })) {
    const int submitted = starpu_task_nsubmitted();
    if (g_yielding.load(std::memory_order_relaxed)) {
      // A task submitted with StarPU directly, or made ready by a thread that runs no hook
      // of ours (a host thread's starpu_data_release): blocked CPU workers poll.
      const int ready = starpu_task_nready();
      if (submitted != last_submitted || ready != last_ready) wake_yielding_if_tasks();
      last_submitted = submitted;
      last_ready = ready;
    }
    if (!g_pausing.load(std::memory_order_relaxed)) continue;
    const bool busy = submitted > 0;
    if (g_paused.load(std::memory_order_relaxed)) {
      if (busy) {  // submitted without wake_workers() (StarPU used directly)
        resume_locked();
        note_activity();
      }
      continue;
    }
    if (busy) {
      note_activity();
      continue;
    }
    const Clock::rep seen = g_last_activity.load();
    if (Clock::now() - Clock::time_point{Clock::duration{seen}} < kIdleBeforePause) continue;
    pause_locked();
    // A thread that noted its activity before it saw the workers running resumes nothing:
    // it is seen here (both sides store, then load, sequentially consistent).
    if (g_last_activity.load() != seen || starpu_task_nsubmitted() > 0) {
      resume_locked();
    }
  }
}

#ifdef STARPU_NON_BLOCKING_DRIVERS
// PEPPHER_<name> = 0 turns a default off; anything else, or unset, keeps it.
bool env_off(const char* name) {
  const char* env = std::getenv(name);
  return env != nullptr && std::strcmp(env, "0") == 0;
}

// Marks the OpenCL devices idle CPU workers yield to; returns whether there is one.
bool find_shared_devices() {
  if (starpu_cpu_worker_get_count() == 0) return false;
  if (env_off("PEPPHER_YIELD_TO_OPENCL")) return false;
  const char* env = std::getenv("PEPPHER_YIELD_TO_OPENCL");
  const bool every_device = env != nullptr && std::strcmp(env, "1") == 0;
  const unsigned n = starpu_opencl_worker_get_count();
  std::vector<int> workers(n);
  const unsigned got =
      starpu_worker_get_ids_by_type(STARPU_OPENCL_WORKER, workers.data(), static_cast<int>(n));
  bool any = false;
  for (unsigned i = 0; i < got; ++i) {
    const int devid = starpu_worker_get_devid(workers[i]);
    if (devid < 0 || devid >= STARPU_MAXOPENCLDEVS) continue;
    const bool cpu = runs_on_host_cpu(devid);
    if (every_device || cpu) {
      g_driver_seen[devid].store(now_rep());  // its driver polls: it runs no task yet
      g_shares_cores[devid].store(true);
      any = true;
    }
  }
  return any;
}
#endif

}  // namespace

bool start_idle_pausing(bool distributed) {
#ifdef STARPU_NON_BLOCKING_DRIVERS
  if (distributed) return false;
  const bool pausing = !env_off("PEPPHER_PAUSE_IDLE_WORKERS");
  const bool yielding = find_shared_devices();
  if (!pausing && !yielding) return false;
  note_activity();
  g_stop = false;
  g_pausing = pausing;
  // Nothing was submitted yet: the program's own code after init (filling its arrays) has
  // the cores at once, rather than beside polling workers until the watcher's first pause.
  std::lock_guard<std::mutex> lock(g_mutex);
  if (pausing) pause_locked();
  g_idle_hook = starpu_idle_hook_register(idle_hook, nullptr);
  if (yielding && g_idle_hook >= 0) {
    int ids[STARPU_NMAXWORKERS];
    const int n = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids, STARPU_NMAXWORKERS);
    g_cpu_workers.assign(ids, ids + n);
    for (const int id : g_cpu_workers) g_cpu_seen[id].store(now_rep());
    g_yielding.store(true);
    register_hook_locked();
  }
  g_watcher = std::thread(watch);
  g_enabled.store(true, std::memory_order_release);
  return pausing;
#else
  (void)distributed;  // idle workers block by themselves
  return true;
#endif
}

void stop_idle_pausing() noexcept {
  if (!g_enabled.exchange(false)) return;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stop = true;
  }
  g_stop_cv.notify_all();
  g_watcher.join();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    resume_locked();
  }
  // Blocked CPU workers return (a hook may still be running after its deregistration).
  g_yielding.store(false);
  for (std::atomic<bool>& shares : g_shares_cores) shares.store(false);
  for (std::atomic<Clock::rep>& seen : g_driver_seen) seen.store(0);
  for (std::atomic<Clock::rep>& seen : g_cpu_seen) seen.store(0);
  wake_yielding();
  if (g_idle_hook >= 0) starpu_idle_hook_deregister(g_idle_hook);
  g_idle_hook = -1;
  if (g_hook >= 0) starpu_progression_hook_deregister(g_hook);
  g_hook = -1;
}

void wake_workers() noexcept {
  note_activity();
  if (!g_paused.load()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  resume_locked();
  note_activity();
}

void task_submitted() noexcept {
  wake_yielding_if_tasks();
}

bool opencl_task_begins(int devid) noexcept {
  if (devid < 0 || devid >= STARPU_MAXOPENCLDEVS || !g_shares_cores[devid].load()) return false;
  g_device_tasks.fetch_add(1);
  wake_yielding();  // what happened while none ran (no bump then) is seen by the next poll
  return true;
}

void opencl_task_ends() noexcept {
  g_device_tasks.fetch_sub(1);
  wake_yielding();
}

bool idle_progression_hook_registered() noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_hook >= 0;
}

bool idle_workers_yield_to_opencl() noexcept {
  return g_yielding.load();
}

}  // namespace peppher::detail
