// dot, CUDA variant: result = sum of x[i] * y[i]. Each block reduces a grid-stride share in
// shared memory and adds it atomically to *result (zeroed first), all on this worker's stream.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include <algorithm>

namespace {

constexpr int kThreads = 256;  // a power of two: the tree reduction below relies on it

__global__ void dot_kernel(const float* x, const float* y, int n, float* result) {
  __shared__ float partial[kThreads];
  float sum = 0.0f;
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += x[i] * y[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

}  // namespace

void dot_cuda(const float* x, const float* y, int n, peppher::Scalar<float>& result) {
  // Inside a variant the Scalar is a view over the worker's copy, so the pointer is a device
  // pointer; on a view host_write() only hands it out (no StarPU acquire, no memory access).
  float* out = result.host_write();
  cudaStream_t stream = peppher::cuda::stream();
  peppher::cuda::check(cudaMemsetAsync(out, 0, sizeof(float), stream), "dot_cuda", "clear result");
  if (n > 0) {
    const int blocks = std::min((n + kThreads - 1) / kThreads, 1024);
    dot_kernel<<<blocks, kThreads, 0, stream>>>(x, y, n, out);
  }
  peppher::cuda::finish("dot_cuda");
}
