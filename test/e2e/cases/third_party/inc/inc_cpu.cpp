// tp_inc, CPU variant: v[i] += 1.
#include <peppher/runtime.h>

void tp_inc_cpu(peppher::Vector<float>& v, int n) {
  for (int i = 0; i < n; ++i) v[i] += 1.0f;
}
