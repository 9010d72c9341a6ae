// CUDA variant of vector_scale: arr is already in device memory (the runtime moved it);
// one thread per element, launched on the runtime's stream for this worker.
#include <starpu.h>

static __global__ void scale_kernel(float* arr, int size, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) arr[i] *= factor;
}

void scale_cuda_func(float* arr, int size, float factor) {
  const int threads = 256;
  const int blocks = (size + threads - 1) / threads;
  scale_kernel<<<blocks, threads, 0, starpu_cuda_get_local_stream()>>>(arr, size, factor);
  cudaStreamSynchronize(starpu_cuda_get_local_stream());
}
