// pheavy, CPU variant: x and y are views of one block each.
#include <peppher/runtime.h>

void pheavy_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, int iters, int) {
  const float* in = x.data();
  float* out = y.data();
  for (size_t i = 0; i < y.size(); ++i) {
    float v = in[i];
    for (int r = 0; r < iters; ++r) v = v * 0.999f + 0.5f;
    out[i] = v;
  }
}
