// step_raw, sequential CPU variant: adds 1 to every element, then 30 ms of "work" (a sleep:
// the same time under any load), so that the model ranks it after the OpenMP variant.
#include <chrono>
#include <thread>

void step_raw_cpu(float* v, int n) {
  for (int i = 0; i < n; ++i) v[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
}
