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
// So a watcher thread pauses the workers once nothing has been submitted for a while and no
// task is in flight, and they are resumed before anything needs them again:
// - the runtime's own task submissions call wake_workers() first;
// - a synchronous data request (starpu_data_acquire, unregister) waits in a loop that runs
//   StarPU's progression hooks: ours resumes the workers, since only they move device data;
// - a task submitted some other way (a program using StarPU directly) is noticed by the
//   watcher, which resumes the workers when StarPU counts submitted tasks.
#include "idle_workers.h"

#include <starpu.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace peppher::detail {
namespace {

using Clock = std::chrono::steady_clock;

// How long the runtime must have been idle (no submission, no task in flight) before the
// workers are paused, and how often the watcher looks.
constexpr auto kIdleBeforePause = std::chrono::milliseconds(10);
constexpr auto kWatchPeriod = std::chrono::milliseconds(2);

std::mutex g_mutex;  // g_paused's changes, the watcher's start and stop
std::condition_variable g_stop_cv;
bool g_stop = false;
std::thread g_watcher;
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_paused{false};
std::atomic<Clock::rep> g_last_activity{0};
int g_hook = -1;

void note_activity() noexcept {
  g_last_activity.store(Clock::now().time_since_epoch().count());
}

void resume_locked() {
  if (!g_paused.load(std::memory_order_relaxed)) return;
  starpu_resume();
  g_paused.store(false);
}

// A StarPU progression hook: called by spinning workers (cheap: one load) and by any other
// thread while it waits for a data request, which only a running worker may complete (the
// runtime is not idle then).
unsigned progression_hook(void* /*unused*/) {
  if (starpu_worker_get_id() < 0) wake_workers();
  return 1;  // "may block": only read by drivers built blocking
}

void watch() {
  std::unique_lock<std::mutex> lock(g_mutex);
  while (!g_stop_cv.wait_for(lock, kWatchPeriod, [] { return g_stop; })) {
    const bool busy = starpu_task_nsubmitted() > 0;
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
    starpu_pause();
    g_paused.store(true);
    // A thread that noted its activity before it saw the workers running resumes nothing:
    // it is seen here (both sides store, then load, sequentially consistent).
    if (g_last_activity.load() != seen || starpu_task_nsubmitted() > 0) {
      resume_locked();
    }
  }
}

bool wanted() {
#ifdef STARPU_NON_BLOCKING_DRIVERS
  const char* env = std::getenv("PEPPHER_PAUSE_IDLE_WORKERS");
  return env == nullptr || std::strcmp(env, "0") != 0;
#else
  return false;  // idle workers block by themselves
#endif
}

}  // namespace

void start_idle_pausing(bool distributed) {
  if (distributed || !wanted()) return;
  note_activity();
  g_stop = false;
  g_paused = false;
  g_watcher = std::thread(watch);
  g_hook = starpu_progression_hook_register(progression_hook, nullptr);
  g_enabled.store(true, std::memory_order_release);
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

}  // namespace peppher::detail
