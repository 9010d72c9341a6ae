// A 3x3 box blur in PolyBench's style: column j in dimension 0, row i in dimension 1.
__kernel void blur(__global const float* in, __global float* out, int ni, int nj) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < 1 || j < 1 || i >= ni - 1 || j >= nj - 1) return;
  float s = 0.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj) s += in[(i + di) * nj + j + dj];
  out[i * nj + j] = s / 9.0f;
}
