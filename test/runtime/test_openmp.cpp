// OpenMP (STARPU_FORKJOIN) tasks on a combined worker: the operands a generated OPENMP wrapper
// reads (peppher::openmp_task_buffers) are the task's, in its codelet's buffer order, on every
// StarPU version (StarPU 1.4.0 to 1.4.9 pass the function its operands in their locking order:
// docs/SELECTION.md "OpenMP variants"); and the variant's OpenMP team (peppher::OpenMpTeam) has
// a thread per member of the combined worker, and ends with a long call.
#include <omp.h>
#include <starpu.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "peppher/runtime.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using peppher_test::two_cpus;

namespace {

struct OrderArgs {
  std::array<std::uint32_t, 3> length;  // of the operand at each buffer index
};

std::atomic<int> g_runs{0};
std::atomic<int> g_combined{0};   // runs on a combined worker of two CPU workers
std::atomic<int> g_in_order{0};   // runs whose operands were the task's, in order
std::atomic<int> g_raw_order{0};  // runs where StarPU's own array was in order

// Operand k must be the vector of length args.length[k], every element of which is its length.
bool operands_in_order(void** operands, const OrderArgs& args) {
  for (std::size_t k = 0; k < args.length.size(); ++k) {
    if (operands[k] == nullptr || STARPU_VECTOR_GET_NX(operands[k]) != args.length[k]) return false;
    const auto* v = reinterpret_cast<const std::uint32_t*>(STARPU_VECTOR_GET_PTR(operands[k]));
    for (std::uint32_t i = 0; i < args.length[k]; ++i)
      if (v[i] != args.length[k]) return false;
  }
  return true;
}

// What a generated OPENMP backend wrapper does before reading its operands.
void check_operands(void* buffers[], void* cl_arg) {
  const auto& args = *static_cast<const OrderArgs*>(cl_arg);
  void* interfaces[3];
  void** operands = peppher::openmp_task_buffers(buffers, interfaces, 3);
  if (operands_in_order(operands, args)) ++g_in_order;
  if (operands_in_order(buffers, args)) ++g_raw_order;
  if (starpu_combined_worker_get_size() == 2) ++g_combined;
  ++g_runs;
}

// A codelet of one OpenMP function, as a forced OPENMP variant's is.
starpu_codelet openmp_codelet(const char* name, void (*func)(void**, void*)) {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.name = name;
  cl.type = STARPU_FORKJOIN;
  cl.max_parallelism = INT_MAX;
  cl.cpu_funcs[0] = func;
  return cl;
}

}  // namespace

TEST_CASE("an OpenMP task on a combined worker reads its operands in its own order", "[openmp]") {
  // peager: combined workers, as for a composition without models.
  peppher::Runtime rt(two_cpus("peager"));
  starpu_codelet cl = openmp_codelet("check_operands", check_operands);
  cl.nbuffers = 3;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = STARPU_R;
  cl.modes[2] = STARPU_RW;
  g_runs = g_combined = g_in_order = g_raw_order = 0;
  // Three vectors told apart by their lengths (and contents), given to the tasks in every
  // order: StarPU's locking order (by handle) is at most one of them.
  const std::array<std::uint32_t, 3> lengths{5, 7, 11};
  std::vector<peppher::Vector<std::uint32_t>> vectors;
  for (std::uint32_t n : lengths) vectors.emplace_back(std::vector<std::uint32_t>(n, n));
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int rounds = 4;
  for (int round = 0; round < rounds; ++round)
    for (const auto& order : orders) {
      peppher::TaskBuilder task(&cl, "check_operands");
      for (int k = 0; k < 3; ++k) {
        task.args<OrderArgs>().length[k] = lengths[order[k]];
        task.use(k, vectors[order[k]]);
      }
      task.submit(false);
    }
  starpu_task_wait_for_all();
  INFO("StarPU's own array listed the operands in order in " << g_raw_order.load() << " of "
                                                             << g_runs.load() << " runs");
  CHECK(g_runs == 6 * rounds);
  CHECK(g_combined == g_runs);  // every task ran as a parallel task on both CPU workers
  CHECK(g_in_order == g_runs);
}

namespace {

// What the OpenMP variant's team looked like, seen from inside it.
// Written by the OpenMP threads, read by the test after the task: atomics (libgomp's own
// barriers are invisible to ThreadSanitizer).
struct TeamSeen {
  std::atomic<int> threads{0};
  std::atomic<long> helper_tid{-1};  // OpenMP thread 1's Linux thread id
};
TeamSeen g_seen;

// Runs for at least the given milliseconds (cl_arg), its OpenMP team looked at.
void look_at_team(void* /*buffers*/[], void* cl_arg) {
  const peppher::OpenMpTeam team;  // what every generated OPENMP wrapper holds
#pragma omp parallel
  {
#pragma omp single
    g_seen.threads = omp_get_num_threads();
    if (omp_get_thread_num() == 1) g_seen.helper_tid = static_cast<long>(syscall(SYS_gettid));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<const int*>(cl_arg)));
}

// Whether Linux thread @p tid of this process is still there after up to 2 s.
bool still_there(long tid) {
  const std::string path = "/proc/self/task/" + std::to_string(tid);
  for (int i = 0; i < 2000 && std::filesystem::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return std::filesystem::exists(path);
}

// Whether a thread of this process is named @p name, within 2 s.
bool thread_named(const std::string& name) {
  for (int i = 0; i < 2000; ++i) {
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::ifstream comm(task.path() / "comm");
      std::string seen;
      if (std::getline(comm, seen) && seen == name) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace

TEST_CASE("an OpenMP variant's team has a thread per member and ends after a long call",
          "[openmp]") {
  peppher::Runtime rt(two_cpus("peager"));
  if (starpu_cpu_worker_get_count() < 2) {
    WARN("fewer than 2 CPU workers: no combined worker to look at");
    return;
  }
  starpu_codelet cl = openmp_codelet("look_at_team", look_at_team);
  auto run_for = [&](int ms) {
    g_seen.threads = 0;
    g_seen.helper_tid = -1;
    peppher::TaskBuilder task(&cl, "look_at_team");
    task.args<int>() = ms;
    task.submit(true);
    REQUIRE(g_seen.threads == 2);
    REQUIRE(g_seen.helper_tid > 0);
    return g_seen.helper_tid.load();
  };
  // 60 ms: its thread 1 ends with the call (OpenMP would keep it, spinning, then asleep).
  CHECK_FALSE(still_there(run_for(60)));
  // Short calls keep theirs (not checked here: how long a new team takes to start decides,
  // on a loaded machine), and still get a thread per member.
  run_for(0);
  run_for(0);
  // From the first call on, libgomp counts StarPU's workers among the CPUs' threads (a team
  // of ours, asleep), so that its idle threads spin 100 turns, not 300,000.
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
    CHECK(thread_named("peppher-omp"));
  }
}
