// predicted: a variant and its prediction function, the expected microseconds of a
// call, which the generated cost model calls with the task (here: 2 ms whatever n).
#include <starpu.h>

void pred_large(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}

extern "C" double pred_large_cost(const starpu_task* /*task*/, unsigned /*arch*/,
                                  unsigned /*nimpl*/) {
  return 2000.0;
}
