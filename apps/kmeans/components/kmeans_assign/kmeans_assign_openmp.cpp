// kmeans_assign, OpenMP variant: the points of the block shared out among the threads (each
// point's centre is the CPU variant's; the count of changes is an integer sum).
#include <peppher/runtime.h>

#include "../kmeans_point.h"

void kmeans_assign_openmp(const peppher::Matrix<float>& points,
                          const peppher::Matrix<float>& centres, int,
                          peppher::Vector<int>& membership, peppher::Scalar<int>& changed) {
  const int k = static_cast<int>(centres.rows()), f = static_cast<int>(centres.cols());
  const int ld = static_cast<int>(centres.ld());
  const float* p = points.data();
  const float* c = centres.data();
  int* m = membership.data();
  const long rows = static_cast<long>(points.rows());
  const std::size_t pld = points.ld();
  int moved = 0;
#pragma omp parallel for reduction(+ : moved) schedule(static)
  for (long i = 0; i < rows; ++i) {
    const int nearest = kmeans::nearest(p + static_cast<std::size_t>(i) * pld, c, k, f, ld);
    moved += nearest != m[i] ? 1 : 0;
    m[i] = nearest;
  }
  changed.set(changed.get() + moved);
}
