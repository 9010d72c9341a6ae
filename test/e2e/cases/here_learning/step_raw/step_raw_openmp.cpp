// step_raw, OpenMP variant: the same result, then 5 ms of "work".
#include <chrono>
#include <thread>

void step_raw_openmp(float* v, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) v[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
}
