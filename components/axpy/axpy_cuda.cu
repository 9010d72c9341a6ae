// axpy, CUDA variant: y = a * x + y with a grid-stride kernel launched on this worker's stream
// by a host function with the interface's signature; x and y are device pointers.
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
    std::fprintf(stderr, "axpy_cuda: %s: %s\n", what, cudaGetErrorString(err));
    std::abort();
  }
}

__global__ void axpy_kernel(float a, const float* x, float* y, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + y[i];
}

}  // namespace

void axpy_cuda(float a, const float* x, float* y, int n) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const int blocks = std::min((n + kThreads - 1) / kThreads, 4096);
  cudaStream_t stream = local_stream();
  axpy_kernel<<<blocks, kThreads, 0, stream>>>(a, x, y, n);
  check(cudaGetLastError(), "launch");
  check(cudaStreamSynchronize(stream), "synchronize");  // StarPU expects the work done on return
}
