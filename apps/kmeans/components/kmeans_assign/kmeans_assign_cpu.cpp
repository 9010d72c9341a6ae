// kmeans_assign, CPU variant: each point of the block to its nearest centre; changed (this
// block's partial, from 0) counts the points whose centre changed.
#include <peppher/runtime.h>

#include "../kmeans_point.h"

void kmeans_assign_cpu(const peppher::Matrix<float>& points, const peppher::Matrix<float>& centres,
                       int, peppher::Vector<int>& membership, peppher::Scalar<int>& changed) {
  const int k = static_cast<int>(centres.rows()), f = static_cast<int>(centres.cols());
  const float* p = points.data();
  const float* c = centres.data();
  int* m = membership.data();
  int moved = changed.get();
  for (std::size_t i = 0; i < points.rows(); ++i) {
    const int nearest =
        kmeans::nearest(p + i * points.ld(), c, k, f, static_cast<int>(centres.ld()));
    moved += nearest != m[i] ? 1 : 0;
    m[i] = nearest;
  }
  changed.set(moved);
}
