/* CUDA variant: PolyBench-ACC's gemm_kernel (CUDA/linear-algebra/kernels/gemm/gemm.cu, as
   written: common/pb_cuda.h) launched as the suite's gemmCuda does: one 2-D launch in blocks
   of DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y (32 x 8), j = blockIdx.x... over the columns and
   i over the rows, the grid sized from NI (x) and NJ (y) as that host code sizes it (the
   same when the matrices are square). */
#define PB_SUITE_CUH "gemm.cuh"
#include "pb_cuda.h"

void gemm_cuda(const float* a, const float* b, float* c, float alpha, float beta, int ni, int nj,
               int nk) {
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid(pb_blocks(NI, block.x), pb_blocks(NJ, block.y));
  gemm_kernel<<<grid, block, 0, peppher::cuda::stream()>>>(
      ni, nj, nk, alpha, beta, const_cast<float*>(a), const_cast<float*>(b), c);
  peppher::cuda::finish("gemm_cuda");
}
