// bench_containers: element-wise read and write loops over 10^7 elements through
// peppher::Vector<double> and std::vector<double> in one run; prints best-of-N times and
// ends with `RESULT ratio=<Vector time / std::vector time>` (goal: at most 1.2).
#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "peppher/runtime.h"

namespace {

constexpr std::size_t kN = 10'000'000;
constexpr int kRepeats = 7;

// A CPU codelet that writes the vector, so each round starts with the data registered and
// last written by a task: the loop's first access must really acquire it.
void scale_cpu(void* buffers[], void*) {
  auto* v = reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  const unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
  for (unsigned i = 0; i < n; ++i) v[i] = v[i] * 0.5 + 1.0;
}

starpu_codelet make_codelet() {
  starpu_codelet cl;
  std::memset(&cl, 0, sizeof cl);
  cl.name = "bench_scale";
  cl.cpu_funcs[0] = scale_cpu;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  return cl;
}
starpu_codelet g_scale = make_codelet();

void write_by_task(peppher::Vector<double>& v) {
  if (starpu_task_insert(&g_scale, STARPU_RW, v.handle_for_task(), 0) != 0)
    throw peppher::Error("bench: task submission failed");
  starpu_task_wait_for_all();  // not timed: we time the host access, not the task
}

template <typename F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Not inlined, for both containers alike: each loop is compiled as a function of its own,
// as loops in real code are, rather than merged into main's register allocation.
template <typename V>
[[gnu::noinline]] double read_loop(V& v) {
  double sum = 0;
  for (std::size_t i = 0; i < kN; ++i) sum += v[i];
  return sum;
}

template <typename V>
[[gnu::noinline]] void write_loop(V& v, double x) {
  for (std::size_t i = 0; i < kN; ++i) v[i] = x + double(i);
}

volatile double g_sink;

}  // namespace

int main() {
  peppher::Runtime runtime;
  peppher::Vector<double> pv(kN, 1.0);
  std::vector<double> sv(kN, 1.0);
  double best[4] = {1e30, 1e30, 1e30, 1e30};  // Vector read, std read, Vector write, std write
  for (int r = 0; r < kRepeats; ++r) {        // alternate the order: the machine is shared, noisy
    const bool ours_first = r % 2 == 0;
    auto time_read = [&](bool ours) {
      if (ours) {
        write_by_task(pv);
        best[0] = std::min(best[0], seconds([&] { g_sink = read_loop(pv); }));
      } else {
        best[1] = std::min(best[1], seconds([&] { g_sink = read_loop(sv); }));
      }
    };
    auto time_write = [&](bool ours) {
      if (ours) {
        write_by_task(pv);
        best[2] = std::min(best[2], seconds([&] {
                             write_loop(pv, r);
                             g_sink = pv[kN / 2];
                           }));
      } else {
        best[3] = std::min(best[3], seconds([&] {
                             write_loop(sv, r);
                             g_sink = sv[kN / 2];
                           }));
      }
    };
    time_read(ours_first);
    time_read(!ours_first);
    time_write(ours_first);
    time_write(!ours_first);
  }
  std::printf("elements          %zu (double), best of %d\n", kN, kRepeats);
  std::printf("read  Vector      %.3f ms\n", best[0] * 1e3);
  std::printf("read  std::vector %.3f ms  (ratio %.3f)\n", best[1] * 1e3, best[0] / best[1]);
  std::printf("write Vector      %.3f ms\n", best[2] * 1e3);
  std::printf("write std::vector %.3f ms  (ratio %.3f)\n", best[3] * 1e3, best[2] / best[3]);
  std::printf("RESULT ratio=%.3f\n", (best[0] + best[2]) / (best[1] + best[3]));
  return 0;
}
