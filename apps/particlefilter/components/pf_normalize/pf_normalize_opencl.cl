// pf_normalize, OpenCL variant: one work-item does the sums, the estimate, the cumulative
// weights and the offset in the CPU variant's order (as Rodinia's kernel computes its CDF in
// one work-item); the LCG is pf_particle.h's.
// PEPPHER_GLOBAL_SIZE(1)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void pf_normalize_opencl(__global const double* x, int x_size, __global const double* y,
                                  int y_size, __global const double* weights, int n, int frame,
                                  __global int* draw, __global double* cdf, int cdf_size,
                                  __global double* u1, __global double* track, int track_size) {
  (void)x_size;
  (void)y_size;
  (void)cdf_size;
  (void)track_size;
  if (get_global_id(0) != 0) return;
  double s = 0.0, sx = 0.0, sy = 0.0;
  for (int i = 0; i < n; ++i) s = s + weights[i];
  for (int i = 0; i < n; ++i) sx = sx + x[i] * weights[i];
  for (int i = 0; i < n; ++i) sy = sy + y[i] * weights[i];
  track[2 * frame] = sx / s;
  track[2 * frame + 1] = sy / s;
  for (int i = 0; i < n; ++i) cdf[i] = weights[i] / s;
  for (int i = 1; i < n; ++i) cdf[i] = cdf[i - 1] + cdf[i];
  const int num = as_int(1103515245u * as_uint(*draw) + 12345u);
  *draw = num % 2147483647;
  const int d = *draw < 0 ? -*draw : *draw;
  *u1 = ((d == 0 ? 1 : d) / (double)2147483647) / n;
}
