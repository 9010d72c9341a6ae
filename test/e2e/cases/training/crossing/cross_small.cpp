// crossing: the variant for small n (20 us per element, made deterministic by sleeping).
#include <chrono>
#include <thread>

void cross_small(float* x, int n) {
  std::this_thread::sleep_for(std::chrono::microseconds(20 * n));
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
