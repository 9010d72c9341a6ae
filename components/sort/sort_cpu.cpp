// sort, sequential CPU variant: sorts data[0..n) ascending in place with std::sort.
// A function template over the element type: the composer's generated translation unit
// #includes this file and instantiates it explicitly (template void sort_cpu<float>(float*,
// int); ...), so this file holds only the template. Called by the generated CPU backend
// wrapper with a pointer to the worker's copy.
#include <algorithm>

template <typename T>
void sort_cpu(T* data, int n) {
  if (n > 1) std::sort(data, data + n);
}
