// chain <n> <iterations> <start> [wait]: x (n floats) goes through step_a, step_b, step_c
// `iterations` times, all calls asynchronous; <start> is "home" (x filled on the host) or
// "device" (x written by seed on the OpenCL device first). With "wait", the program waits
// for each call's task before the next call (starpu_task_wait_for_all: the data stays where
// the task left it), so a scheduler decides each call with idle workers. Checks every element
// against the same arithmetic done here; PEPPHER_REPORT=1 says which variant ran where.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4194304;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 3;
  const bool on_device = argc > 3 && std::strcmp(argv[3], "device") == 0;
  const bool wait = argc > 4 && std::strcmp(argv[4], "wait") == 0;
  auto settle = [&] {
    if (wait) starpu_task_wait_for_all();
  };
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(static_cast<std::size_t>(n));
  if (on_device) {
    seed(x, n);
    settle();
  } else {
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
  }
  for (int it = 0; it < iterations; ++it) {
    step_a(x, n);
    settle();
    step_b(x, n);
    settle();
    step_c(x, n);
    settle();
  }
  long wrong = 0;
  for (int i = 0; i < n; ++i) {
    float v = static_cast<float>(i % 7);
    for (int it = 0; it < iterations; ++it) v = ((v * 2.0f + 1.0f) + 3.0f) * 0.5f;
    if (std::fabs(x[i] - v) > 1e-3f * std::fabs(v) + 1e-3f) ++wrong;
  }
  std::printf("chain: %ld wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
