// Shared by the apps' CUDA variants: this worker's stream and a checked wait for the kernel
// (StarPU expects the work done when the variant returns).
#pragma once

#include <cuda_runtime.h>
#include <starpu.h>

#include <cstdio>
#include <cstdlib>

namespace app {

inline cudaStream_t cuda_stream() {
#ifdef STARPU_USE_CUDA
  return starpu_cuda_get_local_stream();
#else
  return 0;  // Debian's StarPU has no CUDA: the default stream
#endif
}

/// Waits for the kernels launched on cuda_stream(); aborts with @p variant's name on an error.
inline void cuda_finish(const char* variant) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaStreamSynchronize(cuda_stream());
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", variant, cudaGetErrorString(err));
    std::abort();
  }
}

}  // namespace app
