// fit_learned, CPU variant: x and y are views of one block each. Integers times 2 plus 1 are
// exact in float, so every worker gives the same bits.
#include <peppher/runtime.h>

void fit_learned_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, float a, float b) {
  const float* in = x.data();
  float* out = y.data();
  for (size_t i = 0; i < y.size(); ++i) out[i] = a * in[i] + b;
}
