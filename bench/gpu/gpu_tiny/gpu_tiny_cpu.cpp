// gpu_tiny, CPU variant: v[i] += a over a handful of elements.
#include <peppher/runtime.h>

void gpu_tiny_cpu(peppher::Vector<float>& v, float a) {
  for (size_t i = 0; i < v.size(); ++i) v.data()[i] += a;
}
