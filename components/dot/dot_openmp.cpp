// dot, OpenMP variant: result = sum of x[i] * y[i], an OpenMP reduction in double over the
// team of threads the generated OPENMP wrapper sets up for the StarPU parallel task.
#include <peppher/runtime.h>

void dot_openmp(const float* x, const float* y, int n, peppher::Scalar<float>& result) {
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
  result.set(static_cast<float>(sum));
}
