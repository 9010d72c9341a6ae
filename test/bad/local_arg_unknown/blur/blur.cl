// Copies the interior through a 16 x 16 tile (room for a halo) in local memory the host sizes.
__kernel void blur(__global const float* in, __global float* out, __local float* tmp, int ni,
                   int nj) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  const int lj = get_local_id(0) + 1;
  const int li = get_local_id(1) + 1;
  if (i < ni && j < nj) tmp[li * 18 + lj] = in[i * nj + j];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < 1 || j < 1 || i >= ni - 1 || j >= nj - 1) return;
  out[i * nj + j] = tmp[li * 18 + lj];
}
