// dot, OpenCL variant: *result = sum of x[i] * y[i]. One work-group (the descriptor asks for
// globalSize = localSize = 256) strides over x and y, then reduces in local memory; any other
// group returns at once, so the result is right for any launch with localSize <= DOT_WG.
#define DOT_WG 256

__kernel void dot_opencl(__global const float* x, __global const float* y, int n,
                         __global float* result) {
  __local float partial[DOT_WG];
  if (get_group_id(0) != 0) return;  // uniform per group: no barrier divergence
  const int lid = (int)get_local_id(0);
  const int lsize = (int)get_local_size(0);

  if (lsize > DOT_WG) {  // launched wider than the local buffer: one work-item does it all
    if (lid == 0) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i) sum += x[i] * y[i];
      *result = sum;
    }
    return;
  }

  float sum = 0.0f;
  for (int i = lid; i < n; i += lsize) sum += x[i] * y[i];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Tree reduction that also works when lsize is not a power of two.
  int span = 1;
  while (span < lsize) span <<= 1;
  for (int s = span >> 1; s > 0; s >>= 1) {
    if (lid < s && lid + s < lsize) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) *result = partial[0];
}
