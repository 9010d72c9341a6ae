// vector_scale, CUDA variant: a grid-stride kernel launched on this worker's stream by a host
// function with the interface's signature; arr is a device pointer (the worker's copy).
#include <starpu.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

// StarPU's per-worker stream. Debian's StarPU is built without CUDA, so
// starpu_cuda_get_local_stream() is not declared there: fall back to the default stream 0.
cudaStream_t local_stream() {
#ifdef STARPU_USE_CUDA
  return starpu_cuda_get_local_stream();
#else
  return 0;
#endif
}

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "vector_scale_cuda: %s: %s\n", what, cudaGetErrorString(err));
    std::abort();
  }
}

__global__ void vector_scale_kernel(float* arr, int size, float factor) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += stride) arr[i] *= factor;
}

}  // namespace

void vector_scale_cuda(float* arr, int size, float factor) {
  if (size <= 0) return;
  constexpr int kThreads = 256;
  const int blocks = std::min((size + kThreads - 1) / kThreads, 4096);
  cudaStream_t stream = local_stream();
  vector_scale_kernel<<<blocks, kThreads, 0, stream>>>(arr, size, factor);
  check(cudaGetLastError(), "launch");
  check(cudaStreamSynchronize(stream), "synchronize");  // StarPU expects the work done on return
}
