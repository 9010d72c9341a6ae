// kmeans_accumulate, OpenCL variant: work-item (c, j) sums feature j of cluster c's points
// of the block, in point order (the CPU variants' order, so the same bits), into sums, this
// block's private copy on the device; work-item (c, 0) also counts them. The launch is the
// default one, a work-item per element of the first written operand: sums, k x f.
__kernel void kmeans_accumulate_opencl(__global const float* points, int rows, int cols, int ld,
                                       __global const int* membership, int membership_size,
                                       int block, __global float* sums, int k, int f, int sld,
                                       __global int* counts, int counts_size) {
  (void)cols;
  (void)membership_size;
  (void)block;
  (void)counts_size;
  const int g = (int)get_global_id(0);
  if (g >= k * f) return;
  const int c = g / f, j = g % f;
  float s = sums[c * sld + j];
  int n = 0;
  for (int i = 0; i < rows; ++i) {
    if (membership[i] != c) continue;
    s += points[(size_t)i * ld + j];
    ++n;
  }
  sums[c * sld + j] = s;
  if (j == 0) counts[c] += n;
}
