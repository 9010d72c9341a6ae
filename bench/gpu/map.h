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
