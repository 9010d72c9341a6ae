// OpenMP variant: the same result; its 100 ms of "work" is shared by its threads, so it
// takes 100 ms on one core (slower than work_cpu) and 50 ms on a team of two
// (faster): the models should pick it there, and only there.
#include <omp.h>

#include <chrono>
#include <thread>

void work_openmp(float* x, int n) {
  const int threads = omp_get_max_threads();
#pragma omp parallel for
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(100 / (threads > 0 ? threads : 1)));
}
