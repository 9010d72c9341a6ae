#include "inc_defs.h"  // found through -I ../vendor/include in the descriptor's flags

__kernel void increment_i(__global float* v, int n) {
  const int i = get_global_id(0);
  if (i < n) v[i] += INC_STEP;
}
