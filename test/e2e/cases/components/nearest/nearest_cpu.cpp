// nearest, CPU variant: membership[p] = the cluster whose centre is closest to point p
// (squared Euclidean distance, the first one on ties).
#include <peppher/runtime.h>

void nearest_cpu(const peppher::Vector<float>& feature, int npoints, int nfeatures,
                 const peppher::Vector<float>& clusters, int nclusters,
                 peppher::Vector<int>& membership) {
  const float* f = feature.data();
  const float* c = clusters.data();
  int* m = membership.data();
  for (int p = 0; p < npoints; ++p) {
    int best = 0;
    float best_d = 0.0f;
    for (int k = 0; k < nclusters; ++k) {
      float d = 0.0f;
      for (int j = 0; j < nfeatures; ++j) {
        const float diff = f[p * nfeatures + j] - c[k * nfeatures + j];
        d += diff * diff;
      }
      if (k == 0 || d < best_d) {
        best = k;
        best_d = d;
      }
    }
    m[p] = best;
  }
}
