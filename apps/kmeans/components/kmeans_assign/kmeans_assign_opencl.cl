// kmeans_assign, OpenCL variant: work-item i takes point i of the block to its nearest centre
// (the squared distances summed as kmeans_point.h does, without fused multiply-adds, so the
// same centre as the CPU variants) and counts a change into changed, an integer atomically.
// The launch is the default one, a work-item per element of the first written operand: the
// block's membership, a point each.
#pragma OPENCL FP_CONTRACT OFF

__kernel void kmeans_assign_opencl(__global const float* points, int rows, int cols, int ld,
                                   __global const float* centres, int k, int f, int cld, int block,
                                   __global int* membership, int membership_size,
                                   __global int* changed) {
  (void)cols;
  (void)block;
  (void)membership_size;
  const int i = (int)get_global_id(0);
  if (i >= rows) return;
  __global const float* p = points + (size_t)i * ld;
  int best = 0;
  float best_d = 0.0f;
  for (int c = 0; c < k; ++c) {
    float d = 0.0f;
    for (int j = 0; j < f; ++j) {
      const float t = p[j] - centres[c * cld + j];
      d += t * t;
    }
    if (c == 0 || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  if (membership[i] != best) atomic_inc(changed);
  membership[i] = best;
}
