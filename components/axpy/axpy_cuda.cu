// axpy, CUDA variant: y = a * x + y with a grid-stride kernel launched on this worker's stream
// by a host function with the interface's signature; x and y are device pointers.
#include <peppher/cuda.h>

#include <algorithm>

namespace {

__global__ void axpy_kernel(float a, const float* x, float* y, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + y[i];
}

}  // namespace

void axpy_cuda(float a, const float* x, float* y, int n) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const int blocks = std::min((n + kThreads - 1) / kThreads, 4096);
  cudaStream_t stream = peppher::cuda::stream();
  axpy_kernel<<<blocks, kThreads, 0, stream>>>(a, x, y, n);
  peppher::cuda::finish("axpy_cuda");
}
