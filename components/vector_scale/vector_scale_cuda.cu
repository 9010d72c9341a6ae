// vector_scale, CUDA variant: a grid-stride kernel launched on this worker's stream by a host
// function with the interface's signature; arr is a device pointer (the worker's copy).
#include <peppher/cuda.h>

#include <algorithm>

namespace {

__global__ void vector_scale_kernel(float* arr, int size, float factor) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += stride) arr[i] *= factor;
}

}  // namespace

void vector_scale_cuda(float* arr, int size, float factor) {
  if (size <= 0) return;
  constexpr int kThreads = 256;
  const int blocks = std::min((size + kThreads - 1) / kThreads, 4096);
  cudaStream_t stream = peppher::cuda::stream();
  vector_scale_kernel<<<blocks, kThreads, 0, stream>>>(arr, size, factor);
  peppher::cuda::finish("vector_scale_cuda");
}
