// Idle workers leave the host's cores to the program: between calls, with nothing submitted,
// StarPU's worker threads sleep instead of polling (a StarPU built with non-blocking drivers
// keeps them runnable all the time) and the process uses (almost) no CPU time, and the
// workers still run every later task and data movement.
#include <starpu.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

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

// How many of StarPU's worker threads ("CPU 0", "OpenCL 0", "CUDA 0": StarPU names them)
// are runnable now (state R in /proc: running or waiting for a core), and how many exist.
std::pair<int, int> runnable_workers() {
  int runnable = 0, workers = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 >= stat.size())
      continue;
    const std::string name = stat.substr(open + 1, close - open - 1);
    if (name.rfind("CPU ", 0) != 0 && name.rfind("OpenCL ", 0) != 0 && name.rfind("CUDA ", 0) != 0)
      continue;
    ++workers;
    if (stat[close + 2] == 'R') ++runnable;
  }
  return {runnable, workers};
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
