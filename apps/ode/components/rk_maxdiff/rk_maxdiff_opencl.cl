// rk_maxdiff, OpenCL variant: change = max(change, max_i |y_next[i] - y[i]|). One work-group
// (globalSize = localSize = 256, below) strides over the points, then reduces in local
// memory; any other group returns at once.
// PEPPHER_GLOBAL_SIZE(256) PEPPHER_LOCAL_SIZE(256)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define MAXDIFF_WG 256

__kernel void rk_maxdiff_opencl(__global const double* y_next, int y_next_size,
                                __global const double* y, int n, __global double* change) {
  (void)y_next_size;
  __local double partial[MAXDIFF_WG];
  if (get_group_id(0) != 0) return;  // uniform per group: no barrier divergence
  const int lid = (int)get_local_id(0);
  const int lsize = (int)get_local_size(0);
  if (lsize > MAXDIFF_WG) {  // launched wider than the local buffer: one work-item does it all
    if (lid == 0) {
      double m = *change;
      for (int i = 0; i < n; ++i) m = fmax(m, fabs(y_next[i] - y[i]));
      *change = m;
    }
    return;
  }
  double m = 0.0;
  for (int i = lid; i < n; i += lsize) m = fmax(m, fabs(y_next[i] - y[i]));
  partial[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    double all = *change;
    for (int j = 0; j < lsize; ++j) all = fmax(all, partial[j]);
    *change = all;
  }
}
