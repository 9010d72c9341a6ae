// Stages through local memory the host sizes with clSetKernelArg(k, 2, bytes, NULL).
__kernel void copy(__global const float* a, __global float* b, __local float* tile, int n) {
  const int i = get_global_id(0);
  tile[get_local_id(0)] = i < n ? a[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) b[i] = tile[get_local_id(0)];
}
