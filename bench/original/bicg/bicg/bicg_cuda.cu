/* CUDA variant: PolyBench-ACC's bicg_kernel1 and bicg_kernel2 (CUDA/linear-algebra/kernels/
   bicg/bicg.cu, as written: common/pb_cuda.h) launched as the suite's bicgCuda does: blocks
   of DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y (256 x 1), bicg_kernel1 over the ny columns
   (s = A^T r), a wait, bicg_kernel2 over the nx rows (q = A p), a wait. Each kernel zeroes
   its output first. */
#define PB_SUITE_CUH "bicg.cuh"
#include "pb_cuda.h"

void bicg_cuda(int nx, int ny, const float* A, float* s, float* q, const float* p, const float* r) {
  const char* v = "bicg_cuda";
  cudaStream_t stream = peppher::cuda::stream();
  float* a = const_cast<float*>(A);
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid1(pb_blocks(NY, block.x), 1);
  const dim3 grid2(pb_blocks(NX, block.x), 1);
  bicg_kernel1<<<grid1, block, 0, stream>>>(nx, ny, a, const_cast<float*>(r), s);
  peppher::cuda::finish(v);
  bicg_kernel2<<<grid2, block, 0, stream>>>(nx, ny, a, const_cast<float*>(p), q);
  peppher::cuda::finish(v);
}
