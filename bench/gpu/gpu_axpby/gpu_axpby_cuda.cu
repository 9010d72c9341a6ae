// gpu_axpby, CUDA variant: y = a * x + b * y as three kernels on the worker's stream
// (peppher::cuda::stream()): y *= b, t = a * x into a scratch buffer, y += t. They are right
// only in stream order; peppher::cuda::finish waits for all three before the task ends.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

namespace {
__global__ void scale(float* y, int n, float b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= b;
}
__global__ void times(const float* x, float* t, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) t[i] = a * x[i];
}
__global__ void add(float* y, const float* t, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += t[i];
}
}  // namespace

void gpu_axpby_cuda(const peppher::Vector<float>& x, peppher::Vector<float>& y, float a, float b) {
  const int n = static_cast<int>(y.size());
  if (n == 0) return;
  cudaStream_t s = peppher::cuda::stream();
  float* t = nullptr;
  peppher::cuda::check(cudaMallocAsync(&t, sizeof(float) * n, s), "gpu_axpby_cuda", "malloc");
  const int blocks = (n + 255) / 256;
  scale<<<blocks, 256, 0, s>>>(y.data(), n, b);
  times<<<blocks, 256, 0, s>>>(x.data(), t, n, a);
  add<<<blocks, 256, 0, s>>>(y.data(), t, n);
  peppher::cuda::check(cudaFreeAsync(t, s), "gpu_axpby_cuda", "free");
  peppher::cuda::finish("gpu_axpby_cuda");
}
