// phist, OpenCL variant: its private copies of counts, sums (rows x cols, ld) and top arrive
// as device buffers; work-item b (globalSize: the bins) scans the block for the elements of
// bin b in element order, so every bin's sums are the CPU variant's, bit for bit (no
// contraction of v * v + s into a fused multiply-add).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void phist_opencl(__global const float* x, int n, int bs, __global int* counts, int bins,
                           __global double* sums, int rows, int cols, int ld, __global float* top,
                           int top_size) {
  (void)bs;
  (void)rows;
  (void)cols;
  (void)top_size;
  const int b = (int)get_global_id(0);
  if (b >= bins) return;
  for (int i = 0; i < n; ++i) {
    if (min(bins - 1, (int)(x[i] * (float)bins)) != b) continue;
    const double v = x[i];
    counts[b] += 1;
    sums[b * ld] += v;
    sums[b * ld + 1] += v * v;
    top[b] = fmax(top[b], x[i]);
  }
}
