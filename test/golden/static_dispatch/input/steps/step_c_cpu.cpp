// step_c on the CPU: halves every element.
#include <peppher/runtime.h>

void step_c_cpu(peppher::Vector<float>& x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] * 0.5f;
}
