/*
 * A vendor's OpenCL file: several kernels, helpers, macros. Each __kernel runs one
 * work-item per element (this comment's "__kernel void nothing(int)" is no kernel).
 */
#define WG 64
#ifndef AXPY_FMA
#define AXPY_FMA 1
#endif

inline float axpy_one(float a, float x, float y) {
#if AXPY_FMA
  return fma(a, x, y);
#else
  return a * x + y;
#endif
}

__kernel void axpy(const unsigned int n, const float a, __global const float* restrict x,
                   __global float* restrict y) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = axpy_one(a, x[i], y[i]);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void increment(__global float* v,
                                                                        const int n) {
  const int i = get_global_id(0);
  if (i < n) v[i] += 1.0f;
}

__kernel void unused_double(__global float* v) {
  v[get_global_id(0)] *= 2.0f;
}
