// spmv, CUDA variant: y = A * x for a CSR matrix A, one thread per row (grid-stride), launched
// on this worker's stream by a host function with the interface's signature (device pointers).
#include <peppher/cuda.h>

#include <algorithm>

namespace {

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
  cudaStream_t stream = peppher::cuda::stream();
  spmv_kernel<<<blocks, kThreads, 0, stream>>>(nrows, values, row_offsets, col_indices, x, y);
  peppher::cuda::finish("spmv_cuda");
}
