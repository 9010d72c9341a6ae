// Written for a 3-D range (a batch of images in dimension 2), launched 2-D.
__kernel void blur(__global const float* in, __global float* out, int ni, int nj) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  const int image = get_global_id(2);
  if (i < 1 || j < 1 || i >= ni - 1 || j >= nj - 1) return;
  const int at = (image * ni + i) * nj + j;
  out[at] = (in[at - nj] + in[at - 1] + in[at] + in[at + 1] + in[at + nj]) / 5.0f;
}
