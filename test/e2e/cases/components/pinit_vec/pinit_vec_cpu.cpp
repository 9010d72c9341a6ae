// pinit_vec, CPU variant: v is a view of one block; `first` is its first element.
#include <peppher/runtime.h>

void pinit_vec_cpu(peppher::Vector<float>& v, int, int first) {
  float* out = v.data();
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<float>(first) + static_cast<float>(i);
}
