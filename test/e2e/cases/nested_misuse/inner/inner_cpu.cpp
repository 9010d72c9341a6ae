// inner, sequential CPU variant: adds one to every element.
#include <peppher/runtime.h>

void inner_cpu(peppher::Vector<int>& v) {
  int* d = v.data();
  for (std::size_t i = 0; i < v.size(); ++i) d[i] += 1;
}
