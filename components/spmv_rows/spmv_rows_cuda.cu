// spmv_rows, CUDA variant: one thread per row of the block (grid-stride), launched on this
// worker's stream by a host function with the interface's signature (device pointers; y holds
// the block's rows only). For bench/hybrid's CPU + GPU split in the GPU bundle.
#include <peppher/cuda.h>

#include <algorithm>

namespace {

__global__ void spmv_rows_kernel(const float* values, const int* row_offsets,
                                 const int* col_indices, const float* x, float* y, int first_row,
                                 int nrows) {
  const int stride = blockDim.x * gridDim.x;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += stride) {
    const int row = first_row + r;
    float sum = 0.0f;
    const int end = row_offsets[row + 1];
    for (int k = row_offsets[row]; k < end; ++k) sum += values[k] * x[col_indices[k]];
    y[r] = sum;
  }
}

}  // namespace

void spmv_rows_cuda(int /*total_rows*/, int /*nnz*/, const float* values, const int* row_offsets,
                    const int* col_indices, const float* x, int /*ncols*/, float* y, int first_row,
                    int nrows) {
  if (nrows <= 0) return;
  constexpr int kThreads = 128;
  const int blocks = std::min((nrows + kThreads - 1) / kThreads, 8192);
  spmv_rows_kernel<<<blocks, kThreads, 0, peppher::cuda::stream()>>>(
      values, row_offsets, col_indices, x, y, first_row, nrows);
  peppher::cuda::finish("spmv_rows_cuda");
}
