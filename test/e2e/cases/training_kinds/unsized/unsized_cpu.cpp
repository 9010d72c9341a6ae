// unsized, CPU variant: doubles the first n elements of v.
#include <peppher/runtime.h>

void unsized_cpu(peppher::Vector<float>& v, int n) {
  for (size_t i = 0; i < v.size() && static_cast<int>(i) < n; ++i) v[i] *= 2;
}
