// A kernel with the interface's own parameter list, used unchanged: every call's
// memberships must equal a host computation, on whichever worker ran it.
#include <cstdio>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  const int npoints = 3000, nfeatures = 4, nclusters = 5;
  peppher::Vector<float> feature(npoints * nfeatures), clusters(nclusters * nfeatures);
  for (int i = 0; i < npoints * nfeatures; ++i) feature[i] = static_cast<float>((i * 37) % 101);
  int wrong = 0;
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < nclusters * nfeatures; ++i) {
      clusters[i] = static_cast<float>((i * 53 + round * 17) % 101);
    }
    peppher::Vector<int> membership(npoints);
    nearest(feature, npoints, nfeatures, clusters, nclusters, membership);
    for (int p = 0; p < npoints; ++p) {
      int best = 0;
      float best_d = 0.0f;
      for (int k = 0; k < nclusters; ++k) {
        float d = 0.0f;
        for (int j = 0; j < nfeatures; ++j) {
          const float diff = feature[p * nfeatures + j] - clusters[k * nfeatures + j];
          d += diff * diff;
        }
        if (k == 0 || d < best_d) {
          best = k;
          best_d = d;
        }
      }
      wrong += membership[p] != best;
    }
  }
  PEPPHER_SHUTDOWN();
  std::printf("nearest: %d wrong memberships\n", wrong);
  return wrong == 0 ? 0 : 1;
}
