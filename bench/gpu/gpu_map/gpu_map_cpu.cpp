// gpu_map, CPU variant: the map of ../map.h over the (block of the) Vectors.
#include <peppher/runtime.h>

#include "../map.h"

void gpu_map_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y, int iters) {
  for (size_t i = 0; i < y.size(); ++i) y.data()[i] = gpu_bench_map(x.data()[i], iters);
}
