// crossing: the variant for large n (2 ms whatever n, made deterministic by sleeping).
#include <chrono>
#include <thread>

void cross_large(float* x, int n) {
  std::this_thread::sleep_for(std::chrono::microseconds(2000));
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
