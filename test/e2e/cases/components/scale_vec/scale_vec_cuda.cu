// scale_vec, CUDA variant: compiled where nvcc exists; v views device memory.
#include <peppher/runtime.h>

__global__ static void scale_vec_kernel(float* v, size_t n, float factor) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) v[i] *= factor;
}

void scale_vec_cuda(peppher::Vector<float>& v, float factor) {
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>((v.size() + threads - 1) / threads);
  scale_vec_kernel<<<blocks, threads>>>(v.data(), v.size(), factor);
  cudaDeviceSynchronize();
}
