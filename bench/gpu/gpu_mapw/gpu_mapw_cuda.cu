// gpu_mapw, CUDA variant: the map of ../map.h, one thread per element, on the worker's stream.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include "../map.h"

void gpu_mapw_cuda(const peppher::Vector<float>& x, peppher::Vector<float>& y, int iters) {
  gpu_bench_map_launch(x.data(), y.data(), static_cast<int>(y.size()), iters,
                       peppher::cuda::stream());
  peppher::cuda::finish("gpu_mapw_cuda");
}
