__kernel void vdec_step(__global float* x, int n) {
  const int i = get_global_id(0);
  if (i < n) x[i] -= 1;
}
