// spmv, CUDA variant: y = A * x for a CSR matrix A, one thread per row (grid-stride), launched
// on this worker's stream by a host function with the interface's signature (device pointers).
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
    std::fprintf(stderr, "spmv_cuda: %s: %s\n", what, cudaGetErrorString(err));
    std::abort();
  }
}

__global__ void spmv_kernel(int nrows, const float* values, const int* row_offsets,
                            const int* col_indices, const float* x, float* y) {
  const int stride = blockDim.x * gridDim.x;
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < nrows; row += stride) {
    float sum = 0.0f;
    const int end = row_offsets[row + 1];
    for (int k = row_offsets[row]; k < end; ++k) sum += values[k] * x[col_indices[k]];
    y[row] = sum;
  }
}

}  // namespace

void spmv_cuda(int nrows, int /*nnz*/, const float* values, const int* row_offsets,
               const int* col_indices, const float* x, int /*ncols*/, float* y) {
  if (nrows <= 0) return;
  constexpr int kThreads = 128;
  const int blocks = std::min((nrows + kThreads - 1) / kThreads, 8192);
  cudaStream_t stream = local_stream();
  spmv_kernel<<<blocks, kThreads, 0, stream>>>(nrows, values, row_offsets, col_indices, x, y);
  check(cudaGetLastError(), "launch");
  check(cudaStreamSynchronize(stream), "synchronize");  // StarPU expects the work done on return
}
