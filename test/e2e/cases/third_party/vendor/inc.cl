#include "inc.h"

__kernel void increment_h(__global float* v, int n) {
  const int i = get_global_id(0);
  if (i < n) v[i] = bumped(v[i]);
}
