// blocked: one source, six variants by the BLOCK tunable; a call sleeps (70 - BLOCK) ms (steps
// of 10 ms: wider than a loaded machine's oversleeping), so larger blocks are faster.
#include <chrono>
#include <thread>

void blocked_cpu(float* x, int n) {
  std::this_thread::sleep_for(std::chrono::milliseconds(70 - BLOCK));
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
