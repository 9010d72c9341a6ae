// predicted: a variant and its prediction function, the expected microseconds of a
// call, which the generated cost model calls with the task (here 20 us per element,
// n read from the buffer's size).
#include <starpu.h>

void pred_small(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}

extern "C" double pred_small_cost(const starpu_task* task, unsigned /*arch*/, unsigned /*nimpl*/) {
  const double n = static_cast<double>(starpu_vector_get_nx(task->handles[0]));
  return 20.0 * n;
}
