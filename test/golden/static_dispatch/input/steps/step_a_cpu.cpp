// step_a on the CPU: doubles every element and adds 1.
#include <peppher/runtime.h>

void step_a_cpu(peppher::Vector<float>& x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] * 2.0f + 1.0f;
}
