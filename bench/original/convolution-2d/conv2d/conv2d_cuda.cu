/* CUDA variant: PolyBench-ACC's convolution2D_kernel (CUDA/stencils/convolution-2d/
   2DConvolution.cu, as written: common/pb_cuda.h) launched as the suite's convolution2DCuda
   does: one 2-D launch in blocks of DIM_THREAD_BLOCK_X x DIM_THREAD_BLOCK_Y (32 x 8),
   j = blockIdx.x... over the columns and i over the rows, the grid sized from NI (x) and NJ
   (y) as that host code sizes it (the same when the image is square), then a wait. */
#define PB_SUITE_CUH "2DConvolution.cuh"
#include "pb_cuda.h"

void conv2d_cuda(const float* A, float* B, int ni, int nj) {
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid(pb_blocks(NI, block.x), pb_blocks(NJ, block.y));
  float* a = const_cast<float*>(A);
  convolution2D_kernel<<<grid, block, 0, peppher::cuda::stream()>>>(ni, nj, a, B);
  peppher::cuda::finish("conv2d_cuda");
}
