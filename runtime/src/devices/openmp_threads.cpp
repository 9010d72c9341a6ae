// The compiler's OpenMP library behind openmp_threads.h; compiled without StarPU's include
// path, so that <omp.h> is the compiler's (see the header).
#include "devices/openmp_threads.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <system_error>
#include <thread>

namespace peppher::detail {

void openmp_set_threads(int threads) noexcept {
  omp_set_num_threads(threads);
}

int openmp_max_threads() noexcept {
  return omp_get_max_threads();
}

bool openmp_in_parallel() noexcept {
  return omp_in_parallel() != 0;
}

void openmp_end_team() noexcept {
  omp_pause_resource_all(omp_pause_soft);
}

// GCC's libgomp keeps a team's threads spinning after each parallel region, 300,000 turns
// (GOMP_SPINCOUNT's default), unless its threads outnumber the CPUs it found when it loaded:
// then 100 (its manual, GOMP_SPINCOUNT). StarPU has a worker thread on every core, so an
// OpenMP variant's threads do share their cores, but libgomp counts only its own: LUD's 64
// dependent OpenMP calls on two CPU workers waited about 2 ms after each task while one
// worker led every team (one pool, 2 threads on 2 cores) and 20 us once both had (two pools,
// 3 threads). A thread of ours leads one team of a thread per CPU, then sleeps for the rest of
// the process, its team's threads asleep too: from the first OpenMP call on, libgomp's count
// says what StarPU's workers make true. OMP_WAIT_POLICY or GOMP_SPINCOUNT in the environment:
// the user's choice, left alone (libgomp reads them when it loads, before any of our code).
void openmp_count_the_workers() noexcept {
  static std::once_flag once;
  std::call_once(once, [] {
    if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr)
      return;
    const unsigned cpus = std::thread::hardware_concurrency();
    if (cpus < 2) return;
    try {
      std::thread([cpus] {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals go to the program's threads
        pthread_setname_np(pthread_self(), "peppher-omp");
#pragma omp parallel num_threads(static_cast <int>(cpus))
        {}
        for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
      }).detach();
    } catch (const std::system_error&) {
      // No thread to spare: libgomp keeps its default spin.
    }
  });
}

}  // namespace peppher::detail
