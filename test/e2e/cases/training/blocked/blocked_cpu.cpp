// blocked: one source, six variants by the BLOCK tunable; a call sleeps (70 - BLOCK) * 200 us,
// so larger blocks are faster, deterministically.
#include <chrono>
#include <thread>

void blocked_cpu(float* x, int n) {
  std::this_thread::sleep_for(std::chrono::microseconds((70 - BLOCK) * 200));
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
