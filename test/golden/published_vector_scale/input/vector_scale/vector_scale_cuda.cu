// CUDA variant of vector_scale: arr is already in device memory (the runtime moved it);
// one thread per element, launched on the runtime's stream for this worker.
#include <starpu.h>

static __global__ void scale_kernel(float* arr, int size, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) arr[i] *= factor;
}

// StarPU's stream for this worker; a StarPU built without CUDA (Debian's) never runs this
// variant, and the file is only compiled for checking: use the default stream there.
static cudaStream_t worker_stream() {
#ifdef STARPU_USE_CUDA
  return starpu_cuda_get_local_stream();
#else
  return 0;
#endif
}

void scale_cuda_func(float* arr, int size, float factor) {
  const int threads = 256;
  const int blocks = (size + threads - 1) / threads;
  scale_kernel<<<blocks, threads, 0, worker_stream()>>>(arr, size, factor);
  cudaStreamSynchronize(worker_stream());
}
