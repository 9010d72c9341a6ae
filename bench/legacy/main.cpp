// bench/legacy: what a legacy raw-pointer call costs (issue 17).
//   bench_legacy small [calls=10000] [n=1000] [rounds=5]
//     the same loop of vector_scale(x, n, f) on one array three ways, rounds alternating,
//     best round of each: through the generated entry wrapper; calling the CPU variant
//     directly; hand-written synchronous StarPU (register, task, unregister per call, as a
//     raw-pointer call had to be before). Last line:
//     RESULT us_per_call=.. vs_direct=.. vs_starpu_sync=..
//   bench_legacy large [n...]
//     heavy_scale (CPU variant 0.1 us per element, OpenCL kernel) on each size: prints
//     where each call ran from the execution counters (PEPPHER_REPORT=1 shows the table).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

void vector_scale_cpu(float* arr, int size, float factor);

namespace {

void starpu_cpu(void* buffers[], void* cl_arg) {
  float factor;
  starpu_codelet_unpack_args(cl_arg, &factor);
  vector_scale_cpu(reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0])),
                   static_cast<int>(STARPU_VECTOR_GET_NX(buffers[0])), factor);
}

starpu_codelet starpu_codelet_of_scale() {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.name = "vector_scale_by_hand";
  cl.cpu_funcs[0] = starpu_cpu;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  return cl;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int small(int calls, int n, int rounds) {
  std::vector<float> x(static_cast<std::size_t>(n), 1.0f);
  starpu_codelet cl = starpu_codelet_of_scale();
  // Factors 2 and 0.5 alternate: every value stays exactly 1.
  double best_generated = 1e30, best_direct = 1e30, best_starpu = 1e30;
  for (int round = 0; round < rounds; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) vector_scale(x.data(), n, i % 2 ? 0.5f : 2.0f);
    best_generated = std::min(best_generated, seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) vector_scale_cpu(x.data(), n, i % 2 ? 0.5f : 2.0f);
    best_direct = std::min(best_direct, seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
      starpu_data_handle_t h;
      starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(x.data()),
                                  static_cast<uint32_t>(n), sizeof(float));
      float f = i % 2 ? 0.5f : 2.0f;
      starpu_task_insert(&cl, STARPU_RW, h, STARPU_VALUE, &f, sizeof(f), 0);
      starpu_data_unregister(h);  // waits for the task, data back home
    }
    best_starpu = std::min(best_starpu, seconds_since(t0));
  }
  int wrong = 0;
  for (float v : x) wrong += v != 1.0f;
  const double generated_us = best_generated / calls * 1e6;
  const double direct_us = best_direct / calls * 1e6;
  const double starpu_us = best_starpu / calls * 1e6;
  std::printf("%d calls of vector_scale on %d floats, best of %d rounds, scheduler %s\n", calls, n,
              rounds, std::getenv("STARPU_SCHED") ? std::getenv("STARPU_SCHED") : "(composed)");
  std::printf("generated entry wrapper:        %8.3f us/call\n", generated_us);
  std::printf("CPU variant called directly:    %8.3f us/call\n", direct_us);
  std::printf("hand-written synchronous StarPU:%8.3f us/call\n", starpu_us);
  std::printf("result check: %s\n", wrong == 0 ? "ok" : "WRONG");
  std::printf("RESULT us_per_call=%.3f vs_direct=%.3f vs_starpu_sync=%.3f\n", generated_us,
              generated_us / direct_us, generated_us / starpu_us);
  return wrong == 0 ? 0 : 1;
}

int large(int argc, char** argv) {
  int wrong = 0;
  for (int k = 2; k < argc; ++k) {
    const int n = std::atoi(argv[k]);
    std::vector<float> x(static_cast<std::size_t>(n), 1.0f);
    const auto t0 = std::chrono::steady_clock::now();
    heavy_scale(x.data(), n, 2.0f);
    const double us = seconds_since(t0) * 1e6;
    for (float v : x) wrong += v != 2.0f;
    std::printf("heavy_scale n=%d: %.0f us\n", n, us);
  }
  std::printf("result check: %s\n", wrong == 0 ? "ok" : "WRONG");
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "small";
  PEPPHER_INITIALIZE();
  int rc = 0;
  if (std::strcmp(mode, "large") == 0) {
    rc = large(argc, argv);
  } else {
    rc = small(argc > 2 ? std::atoi(argv[2]) : 10000, argc > 3 ? std::atoi(argv[3]) : 1000,
               argc > 4 ? std::atoi(argv[4]) : 5);
  }
  PEPPHER_SHUTDOWN();
  return rc;
}
