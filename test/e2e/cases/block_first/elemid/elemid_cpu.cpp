// elemid, CPU variant: v is the task's block; `first` is its first element in the vector.
#include <peppher/runtime.h>

void elemid_cpu(peppher::Vector<int>& v, int first) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = first + static_cast<int>(i);
}
