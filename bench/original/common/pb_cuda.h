/* bench/original: what the CUDA variants share. Each launches the suite's own kernels (the
   __global__ functions of its CUDA program, CUDA/<folder>/<name>.cu in the suite's folder,
   which bench/original/cuda-kernels writes as written into pb_kernels.cuh beside the composed
   program) on the worker's stream, with the grid and block shapes of the suite's host
   function and in its order. Where that function waits for the device between launches
   (cudaThreadSynchronize, gone from CUDA 13), the variant waits for its stream
   (peppher::cuda::finish), so the launches and waits are the original's. Define
   PB_SUITE_CUH (the program's .cuh: thread-block sizes) before including this file. */
#ifndef PB_CUDA_H
#define PB_CUDA_H

#include <math.h>
#include <peppher/cuda.h>

#include "pb_sizes.h"
/* polybench.h: POLYBENCH_LOOP_BOUND, which the .cuh's _PB_ bounds use. */
#include <polybench.h>
#include PB_SUITE_CUH
#include "pb_kernels.cuh"

/* The grid extent the suite's host code computes, (size_t)ceil((float)n / (float)block). */
static inline unsigned pb_blocks(int n, unsigned block) {
  return (unsigned)(size_t)ceil((float)n / (float)block);
}

#endif
