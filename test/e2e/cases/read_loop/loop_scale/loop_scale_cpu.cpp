// loop_scale, CPU variant: v is a view over the worker's copy.
#include <peppher/runtime.h>

void loop_scale_cpu(peppher::Vector<float>& v, float factor) {
  float* p = v.data();
  for (size_t i = 0; i < v.size(); ++i) p[i] *= factor;
}
