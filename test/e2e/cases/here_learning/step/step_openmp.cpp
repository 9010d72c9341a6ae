// step, OpenMP variant: the same result, then 5 ms of "work": far faster than step_cpu on any
// number of threads, even when a busy machine delays its team.
#include <peppher/runtime.h>

#include <chrono>
#include <thread>

void step_openmp(peppher::Vector<float>& v) {
  float* p = v.data();
  const long n = static_cast<long>(v.size());
#pragma omp parallel for
  for (long i = 0; i < n; ++i) p[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
}
