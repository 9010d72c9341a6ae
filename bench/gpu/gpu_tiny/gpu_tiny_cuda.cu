// gpu_tiny, CUDA variant: v[i] += a, one small kernel on the worker's stream.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

namespace {
__global__ void tiny_kernel(float* v, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += a;
}
}  // namespace

void gpu_tiny_cuda(peppher::Vector<float>& v, float a) {
  const int n = static_cast<int>(v.size());
  tiny_kernel<<<(n + 127) / 128, 128, 0, peppher::cuda::stream()>>>(v.data(), n, a);
  peppher::cuda::finish("gpu_tiny_cuda");
}
