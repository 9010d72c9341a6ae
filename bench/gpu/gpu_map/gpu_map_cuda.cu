// gpu_map, CUDA variant: the map of ../map.h, one thread per element, on the worker's stream.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include "../map.h"

namespace {
__global__ void map_kernel(const float* x, float* y, int n, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gpu_bench_map(x[i], iters);
}
}  // namespace

void gpu_map_cuda(const peppher::Vector<float>& x, peppher::Vector<float>& y, int iters) {
  const int n = static_cast<int>(y.size());
  if (n == 0) return;
  map_kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(x.data(), y.data(), n, iters);
  peppher::cuda::finish("gpu_map_cuda");
}
