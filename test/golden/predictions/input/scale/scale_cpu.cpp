// scale on the CPU, and its prediction function: 10 ns per element (about 0.4 GB/s read and
// written, one core) plus 5 us, so that a call of millions of elements takes milliseconds.
#include <starpu.h>

void scale_cpu(float* x, int n, float factor) {
  for (int i = 0; i < n; ++i) x[i] *= factor;
}

extern "C" double scale_cpu_cost(const starpu_task* task, unsigned /*arch*/, unsigned /*nimpl*/) {
  return 5.0 + 0.01 * static_cast<double>(starpu_vector_get_nx(task->handles[0]));
}
