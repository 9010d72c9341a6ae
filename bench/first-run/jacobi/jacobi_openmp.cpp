// bench/first-run: the OpenMP variant of one Jacobi step (rows shared by the team).
#include <peppher/vector.h>

#include "jacobi_point.h"

void jacobi_openmp(const peppher::Vector<float>& src, peppher::Vector<float>& dst, int n) {
  const float* a = src.data();
  float* b = dst.data();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b[i * n + j] = jacobi_point(a, n, i, j);
}
