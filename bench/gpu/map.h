// bench/gpu: the map of gpu_map and gpu_mapw, one element: iters dependent rounds of
// v = v * 0.999 + 0.5 (compute-bound per element; the CPU and CUDA variants share it).
#pragma once

#ifdef __CUDACC__
#define GPU_BENCH_HD __host__ __device__
#else
#define GPU_BENCH_HD
#endif

GPU_BENCH_HD inline float gpu_bench_map(float v, int iters) {
  for (int r = 0; r < iters; ++r) v = v * 0.999f + 0.5f;
  return v;
}

#ifdef __CUDACC__
#include <cuda_runtime.h>

// The map over n elements on @p stream, one thread per element (gpu_map's and gpu_mapw's
// CUDA variants).
static __global__ void gpu_bench_map_kernel(const float* x, float* y, int n, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gpu_bench_map(x[i], iters);
}

inline void gpu_bench_map_launch(const float* x, float* y, int n, int iters, cudaStream_t stream) {
  if (n > 0) gpu_bench_map_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n, iters);
}
#endif
