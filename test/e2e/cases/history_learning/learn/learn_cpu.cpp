// Sequential variant: adds 1 to every element, then sleeps 150 ms (a fixed cost standing for
// the work, far above the OpenMP variant's even on a loaded machine).
#include <chrono>
#include <thread>

void learn_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
}
