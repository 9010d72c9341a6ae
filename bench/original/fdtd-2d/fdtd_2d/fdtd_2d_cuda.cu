/* CUDA variant: PolyBench-ACC's fdtd_step1_kernel (ey), fdtd_step2_kernel (ex) and
   fdtd_step3_kernel (hz) (CUDA/stencils/fdtd-2d/fdtd2d.cu, as written: common/pb_cuda.h)
   launched as the suite's fdtdCuda does: for each of the tmax steps the three kernels, each
   followed by a wait, over the nx x ny grid in blocks of DIM_THREAD_BLOCK_X x
   DIM_THREAD_BLOCK_Y (32 x 8), j = blockIdx.x... over the ny columns and i over the rows. */
#define PB_SUITE_CUH "fdtd2d.cuh"
#include "pb_cuda.h"

void fdtd_2d_cuda(int tmax, int nx, int ny, float* ex, float* ey, float* hz, const float* fict) {
  const char* v = "fdtd_2d_cuda";
  cudaStream_t stream = peppher::cuda::stream();
  float* f = const_cast<float*>(fict);
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid(pb_blocks(NY, block.x), pb_blocks(NX, block.y));
  for (int t = 0; t < tmax; t++) {
    fdtd_step1_kernel<<<grid, block, 0, stream>>>(nx, ny, f, ex, ey, hz, t);
    peppher::cuda::finish(v);
    fdtd_step2_kernel<<<grid, block, 0, stream>>>(nx, ny, ex, ey, hz, t);
    peppher::cuda::finish(v);
    fdtd_step3_kernel<<<grid, block, 0, stream>>>(nx, ny, ex, ey, hz, t);
    peppher::cuda::finish(v);
  }
}
