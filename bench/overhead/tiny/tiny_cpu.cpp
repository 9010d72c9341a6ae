// tiny, CPU variant: one addition, so a call costs what the task machinery costs.
#include <peppher/runtime.h>

void tiny_cpu(peppher::Vector<float>& v, float a) {
  v.data()[0] += a;
}
