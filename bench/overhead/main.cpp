// bench/overhead: the same tiny component called N times through the generated entry
// wrapper and through a hand-written starpu_task_insert with an identical codelet, same
// scheduler, same container, in one run. Rounds alternate; the best round of each counts.
// Traced vs untraced sessions: the median of back-to-back pair ratios.
//   bench_overhead [calls=100000] [rounds=5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "peppher.h"

void tiny_cpu(peppher::Vector<float>& v, float a);

namespace {

// What an expert writes by hand: unpack the value, wrap the buffer, call the variant.
void direct_cpu(void* buffers[], void* cl_arg) {
  float a;
  starpu_codelet_unpack_args(cl_arg, &a);
  auto v = peppher::Vector<float>::view(reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0])),
                                        STARPU_VECTOR_GET_NX(buffers[0]));
  tiny_cpu(v, a);
}

starpu_codelet direct_codelet() {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.name = "tiny_direct";
  cl.cpu_funcs[0] = direct_cpu;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  return cl;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One runtime session of `calls` generated calls, traced into `trace` unless it is empty;
// returns the seconds of the calls (writing the trace at shutdown is not counted).
double session(int calls, const std::string& trace) {
  peppher::Config config = peppher::Config::with_scheduler("lws");  // this composition's
  config.trace_file = trace;
  peppher::init(config);
  double seconds = 0;
  {
    peppher::Vector<float> v(16, 0.0f);
    tiny(v, 1.0f);  // warm-up: registration, first placement
    starpu_task_wait_for_all();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) tiny(v, 1.0f);
    starpu_task_wait_for_all();
    seconds = seconds_since(t0);
  }
  peppher::shutdown();
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  PEPPHER_INITIALIZE();
  starpu_codelet cl = direct_codelet();
  peppher::Vector<float> v(16, 0.0f);
  float expected = 0.0f;

  double best_generated = 1e30, best_direct = 1e30;
  for (int round = 0; round < rounds; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) tiny(v, 1.0f);
    starpu_task_wait_for_all();
    best_generated = std::min(best_generated, seconds_since(t0));

    starpu_data_handle_t h = v.handle_for_task();
    float one = 1.0f;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
      starpu_task_insert(&cl, STARPU_RW, h, STARPU_VALUE, &one, sizeof(one), 0);
    }
    starpu_task_wait_for_all();
    best_direct = std::min(best_direct, seconds_since(t0));
    expected += 2.0f * static_cast<float>(calls);
  }
  const bool correct = v[0] == expected;
  PEPPHER_SHUTDOWN();

  // Tracing on vs off (PEPPHER_TRACE / Config::trace_file): whole sessions, alternating.
  const std::string trace =
      (std::filesystem::temp_directory_path() / "peppher_bench_overhead_trace.json").string();
  // On a shared machine the best of each side moves with the load: the result is the median
  // of back-to-back pair ratios, the order alternating between rounds.
  double best_off = 1e30, best_on = 1e30;
  std::vector<double> pair_ratios;
  if (std::getenv("PEPPHER_TRACE") == nullptr) {
    for (int round = 0; round < rounds; ++round) {
      double off = 0, on = 0;
      if (round % 2 == 0) {
        off = session(calls, "");
        on = session(calls, trace);
      } else {
        on = session(calls, trace);
        off = session(calls, "");
      }
      best_off = std::min(best_off, off);
      best_on = std::min(best_on, on);
      pair_ratios.push_back(on / off);
    }
    std::filesystem::remove(trace);
  }

  const double generated_us = best_generated / calls * 1e6;
  const double direct_us = best_direct / calls * 1e6;
  std::printf("calls per round: %d, rounds: %d, scheduler: %s\n", calls, rounds,
              std::getenv("STARPU_SCHED") ? std::getenv("STARPU_SCHED") : "(composed default)");
  std::printf("generated entry wrapper:     %.3f us/call\n", generated_us);
  std::printf("hand-written task_insert:    %.3f us/call\n", direct_us);
  std::printf("result check: %s\n", correct ? "ok" : "WRONG");
  std::sort(pair_ratios.begin(), pair_ratios.end());
  const double on_vs_off = pair_ratios.empty() ? 0 : pair_ratios[pair_ratios.size() / 2];
  if (best_off < 1e30) {
    std::printf("untraced session:            %.3f us/call\n", best_off / calls * 1e6);
    std::printf("traced session:              %.3f us/call\n", best_on / calls * 1e6);
  }
  std::printf("RESULT ratio=%.3f generated_us=%.3f direct_us=%.3f trace_on_vs_off=%.3f\n",
              generated_us / direct_us, generated_us, direct_us, on_vs_off);
  return correct ? 0 : 1;
}
