// A host read right after compute-bound partitioned calls, on every rank (mpirun -np 2):
// while this rank's worker computes its blocks, StarPU-MPI's progress thread (named "MPI")
// must not be polling for the other rank's blocks, or it takes the core the worker needs.
// A sampling thread reads both threads' CPU time (/proc/self/task, in clock ticks: what
// each thread consumed, not wall-clock time) every 100 ms and adds up the intervals in
// which the worker computed: there the progress thread must have used under a quarter of
// the worker's time (when it polls, it takes about as much as the worker). The intervals
// in which this rank only waits for the other rank's blocks do not count: polling then
// takes nothing from the worker. Prints "rank R: progress thread <t> ticks, worker <w>
// ticks while computing: ok|WRONG" and the result's check; exits non-zero when either is
// wrong. Linux only (/proc).
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "peppher.h"

namespace {

// CPU time (user + system, in clock ticks) used so far by this process's threads named
// @p name; -1 when there is none.
long ticks_of(const std::string& name) {
  long total = -1;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string got;
    std::getline(comm, got);
    if (got != name) continue;
    std::ifstream stat(task.path() / "stat");
    std::string line;
    std::getline(stat, line);
    std::istringstream fields(line.substr(line.rfind(')') + 2));  // after "pid (comm) "
    std::string field;
    long utime = 0, stime = 0;
    for (int i = 3; fields >> field; ++i) {  // field 3 is the state
      if (i == 14) utime = std::stol(field);
      if (i == 15) stime = std::stol(field);
    }
    total = (total < 0 ? 0 : total) + utime + stime;
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (size_t{1} << 20);
  const int iters = argc > 2 ? std::atoi(argv[2]) : 400;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 100);
  const int bs = static_cast<int>(n / 8);
  pheavy(x, y, iters, bs);  // the blocks go to their owners
  y.host_read();
  const bool found = ticks_of("MPI") >= 0 && ticks_of("CPU 0") >= 0;
  std::atomic<bool> done{false};
  long mpi = 0, worker = 0;  // ticks in the intervals in which the worker computed
  std::thread sampler([&] {
    long m0 = ticks_of("MPI"), w0 = ticks_of("CPU 0");
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const long m1 = ticks_of("MPI"), w1 = ticks_of("CPU 0");
      if (w1 - w0 >= 3) {  // of at most 10
        mpi += m1 - m0;
        worker += w1 - w0;
      }
      m0 = m1;
      w0 = w1;
    }
  });
  for (int c = 0; c < 3; ++c) pheavy(x, y, iters, bs);
  y.host_read();  // submitted while the blocks compute
  done = true;
  sampler.join();
  // Every element reaches the same value from the same start: check a sample of them.
  bool ok = true;
  for (size_t i = 0; i < n; i += 997) {
    float v = x[i];
    for (int r = 0; r < iters; ++r) v = v * 0.999f + 0.5f;
    ok = ok && std::fabs(y[i] - v) <= 1e-3f * (1.0f + std::fabs(v));
  }
  const int rank = peppher::rank();
  PEPPHER_SHUTDOWN();
  // Both threads must exist (StarPU-MPI names them); a machine so busy that the worker never
  // got 3 ticks of 10 leaves nothing to compare (said so, not failed).
  const bool quiet = found && mpi * 4 <= worker;
  std::printf("rank %d: progress thread %ld ticks, worker %ld ticks while computing: %s%s\n", rank,
              mpi, worker, quiet ? "ok" : "WRONG",
              worker == 0 ? " (machine too busy to tell)" : "");
  std::printf("rank %d: results %s\n", rank, ok ? "ok" : "WRONG");
  return ok && quiet ? 0 : 1;
}
