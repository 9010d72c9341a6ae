// offload on the CPU: x[i] += 1, made deterministically slow (20 us per element).
#include <chrono>
#include <thread>

void offload_cpu(float* x, int n) {
  std::this_thread::sleep_for(std::chrono::microseconds(20 * n));
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
