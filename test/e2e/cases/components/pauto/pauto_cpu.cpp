// pauto, CPU variant: 4 x iters rounds per element (the same result as the OpenCL
// variant's iters rounds: the extra rounds cancel), so the CPU is the slower worker.
#include <peppher/runtime.h>

void pauto_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, int iters) {
  const float* in = x.data();
  float* out = y.data();
  for (size_t i = 0; i < y.size(); ++i) {
    float v = in[i];
    for (int r = 0; r < 4 * iters; ++r) v = v * 0.5f + 1.0f;
    out[i] = v;
  }
}
