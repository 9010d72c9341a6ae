__kernel void vscale_kernel(__global float* arr, int n, float factor) {
  int i = get_global_id(0);
  if (i < n) arr[i] *= factor;
}
