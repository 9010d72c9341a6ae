// Calls nearest four times and checks every membership against a host computation. The
// calls start after a pause, so that the background build of the OpenCL kernels has ended
// (and, with the broken kernel file of the e2e test, failed) before the first one: a call
// submitted while the build is under way may still go to the OpenCL worker.
#include <chrono>
#include <cstdio>
#include <thread>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  std::this_thread::sleep_for(std::chrono::seconds(2));
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
