// dot, sequential CPU variant: result = sum of x[i] * y[i], accumulated in double.
// result is a peppher::Scalar view over the worker's copy (set() does no coherence work).
#include <peppher/runtime.h>

void dot_cpu(const float* x, const float* y, int n, peppher::Scalar<float>& result) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
  result.set(static_cast<float>(sum));
}
