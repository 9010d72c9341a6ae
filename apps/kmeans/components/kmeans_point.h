// The nearest-centre rule of kmeans_assign's CPU and OpenMP variants (its OpenCL kernel
// computes the same in the same order): squared distances summed feature by feature in float.
#pragma once

namespace kmeans {

/// The index of the centre nearest to point @p p (@p f features) among @p k centres, rows
/// @p ld apart: the first of the smallest squared distances.
inline int nearest(const float* p, const float* centres, int k, int f, int ld) {
  int best = 0;
  float best_d = 0.0f;
  for (int c = 0; c < k; ++c) {
    float d = 0.0f;
    for (int j = 0; j < f; ++j) {
      const float t = p[j] - centres[c * ld + j];
      d += t * t;
    }
    if (c == 0 || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  return best;
}

}  // namespace kmeans
