// Sequential variant: adds 1 to every element, then sleeps 70 ms (a fixed cost standing for
// the work, so that which variant is faster does not depend on the machine's load).
#include <chrono>
#include <thread>

void work_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(70));
}
