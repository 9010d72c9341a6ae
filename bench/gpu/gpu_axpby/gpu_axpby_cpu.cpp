// gpu_axpby, CPU variant: y = a * x + b * y.
#include <peppher/runtime.h>

void gpu_axpby_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, float a, float b) {
  for (size_t i = 0; i < y.size(); ++i) y.data()[i] = a * x.data()[i] + b * y.data()[i];
}
