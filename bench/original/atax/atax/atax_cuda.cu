/* CUDA variant: PolyBench-ACC's atax_kernel1 and atax_kernel2 (CUDA/linear-algebra/kernels/
   atax/atax.cu, as written: common/pb_cuda.h) launched as the suite's ataxGpu does: blocks of
   DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y (32 x 8; the kernels use the x index only),
   atax_kernel1 over the nx rows (tmp = A x), a wait, atax_kernel2 over the ny columns
   (y = A^T tmp), a wait. Each kernel zeroes its output first. */
#define PB_SUITE_CUH "atax.cuh"
#include "pb_cuda.h"

void atax_cuda(int nx, int ny, const float* A, const float* x, float* y, float* tmp) {
  const char* v = "atax_cuda";
  cudaStream_t stream = peppher::cuda::stream();
  float* a = const_cast<float*>(A);
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid1(pb_blocks(NX, block.x), 1);
  const dim3 grid2(pb_blocks(NY, block.x), 1);
  atax_kernel1<<<grid1, block, 0, stream>>>(nx, ny, a, const_cast<float*>(x), tmp);
  peppher::cuda::finish(v);
  atax_kernel2<<<grid2, block, 0, stream>>>(nx, ny, a, y, tmp);
  peppher::cuda::finish(v);
}
