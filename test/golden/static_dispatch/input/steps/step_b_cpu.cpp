// step_b on the CPU: adds 3 to every element.
#include <peppher/runtime.h>

void step_b_cpu(peppher::Vector<float>& x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] + 3.0f;
}
