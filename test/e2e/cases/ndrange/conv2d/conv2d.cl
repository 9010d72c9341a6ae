// The 3x3 convolution of A's interior into B. Each work-group first copies its block of A
// with a one-element halo into local memory (`tile`, (group width + 2) x (group height + 2)
// floats, sized by the host), then each work-item reads its nine neighbours from there.
__kernel void conv2d(__global const float* A, __global float* B, __local float* tile, int ni,
                     int nj) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  const int w = get_local_size(0) + 2;
  const int h = get_local_size(1) + 2;
  const int top = get_group_id(1) * get_local_size(1) - 1;
  const int left = get_group_id(0) * get_local_size(0) - 1;
  const int step = get_local_size(0) * get_local_size(1);
  for (int t = get_local_id(1) * get_local_size(0) + get_local_id(0); t < w * h; t += step) {
    const int gi = top + t / w;
    const int gj = left + t % w;
    tile[t] = gi >= 0 && gi < ni && gj >= 0 && gj < nj ? A[gi * nj + gj] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < 1 || j < 1 || i >= ni - 1 || j >= nj - 1) return;
  const int li = get_local_id(1) + 1;
  const int lj = get_local_id(0) + 1;
#define AT(di, dj) tile[(li + (di)) * w + lj + (dj)]
  B[i * nj + j] = 0.2f * AT(-1, -1) + 0.5f * AT(0, -1) - 0.8f * AT(1, -1) - 0.3f * AT(-1, 0) +
                  0.6f * AT(0, 0) - 0.9f * AT(1, 0) + 0.4f * AT(-1, 1) + 0.7f * AT(0, 1) +
                  0.1f * AT(1, 1);
#undef AT
}
