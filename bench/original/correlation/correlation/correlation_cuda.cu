/* CUDA variant: PolyBench-ACC's mean_kernel, std_kernel, reduce_kernel and corr_kernel
   (CUDA/datamining/correlation/correlation.cu, as written: common/pb_cuda.h) launched as the
   suite's correlationCuda does, each followed by a wait: mean_kernel, std_kernel and
   corr_kernel in blocks of 256 over the m columns, reduce_kernel in blocks of 32 x 8 over the
   columns (x) and the n rows (y), the grids computed as that host code computes them
   ((size_t)(ceil((float)M) / (float)block): whole blocks only, so m must be a multiple of
   256), then symmat[m-1][m-1] = 1 written from the host, as there. The kernels read the
   suite's macros FLOAT_N and EPS: here FLOAT_N is the call's float_n (the suite's OpenCL
   kernels take it as an argument) and EPS is 0.1, the value of the suite's loop nest
   (kernel_correlation), so that every variant computes the same. */
#define PB_SUITE_CUH "correlation.cuh"
static __device__ float pb_float_n; /* FLOAT_N of the kernels: the call's float_n */
#define FLOAT_N pb_float_n
#define EPS 0.1f
#include "pb_cuda.h"

void correlation_cuda(int m, int n, float float_n, float* data, float* symmat, float* mean,
                      float* stddev) {
  const char* v = "correlation_cuda";
  cudaStream_t stream = peppher::cuda::stream();
  peppher::cuda::check(cudaMemcpyToSymbolAsync(pb_float_n, &float_n, sizeof float_n, 0,
                                               cudaMemcpyHostToDevice, stream),
                       v, "float_n");
  const dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y);
  const dim3 grid1((size_t)(ceil((float)(M)) / ((float)DIM_THREAD_BLOCK_KERNEL_1_X)), 1);
  const dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y);
  const dim3 grid2((size_t)(ceil((float)(M)) / ((float)DIM_THREAD_BLOCK_KERNEL_2_X)), 1);
  const dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X, DIM_THREAD_BLOCK_KERNEL_3_Y);
  const dim3 grid3((size_t)(ceil((float)(M)) / ((float)DIM_THREAD_BLOCK_KERNEL_3_X)),
                   (size_t)(ceil((float)(N)) / ((float)DIM_THREAD_BLOCK_KERNEL_3_Y)));
  const dim3 block4(DIM_THREAD_BLOCK_KERNEL_4_X, DIM_THREAD_BLOCK_KERNEL_4_Y);
  const dim3 grid4((size_t)(ceil((float)(M)) / ((float)DIM_THREAD_BLOCK_KERNEL_4_X)), 1);
  mean_kernel<<<grid1, block1, 0, stream>>>(m, n, mean, data);
  peppher::cuda::finish(v);
  std_kernel<<<grid2, block2, 0, stream>>>(m, n, mean, stddev, data);
  peppher::cuda::finish(v);
  reduce_kernel<<<grid3, block3, 0, stream>>>(m, n, mean, stddev, data);
  peppher::cuda::finish(v);
  corr_kernel<<<grid4, block4, 0, stream>>>(m, n, symmat, data);
  peppher::cuda::finish(v);
  const float one = 1.0f;
  peppher::cuda::check(cudaMemcpyAsync(&symmat[(size_t)(M - 1) * M + (M - 1)], &one, sizeof one,
                                       cudaMemcpyHostToDevice, stream),
                       v, "symmat[m-1][m-1]");
  peppher::cuda::finish(v); /* `one` is read until the copy completes */
}
