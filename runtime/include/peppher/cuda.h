// For CUDA variants (.cu files): the calling worker's stream and checked waits. A variant runs
// inside a StarPU worker, so an error aborts with the variant's name (there is no caller to
// throw to), and StarPU expects the variant's work done when it returns.
#pragma once

#include <cuda_runtime.h>
#include <starpu.h>

#include <cstdio>
#include <cstdlib>

namespace peppher::cuda {

/// The calling worker's stream: StarPU's local stream, or the default stream 0 when StarPU
/// was built without CUDA (Debian's; the variant is then compiled for checking, never run).
inline cudaStream_t stream() {
#ifdef STARPU_USE_CUDA
  return starpu_cuda_get_local_stream();
#else
  return 0;
#endif
}

/// Aborts naming @p variant and @p what when @p err is an error.
inline void check(cudaError_t err, const char* variant, const char* what) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s: %s\n", variant, what, cudaGetErrorString(err));
  std::abort();
}

/// Checks the kernels launched so far and waits for stream(): call last in a variant.
inline void finish(const char* variant) {
  check(cudaGetLastError(), variant, "launch");
  check(cudaStreamSynchronize(stream()), variant, "synchronize");
}

}  // namespace peppher::cuda
