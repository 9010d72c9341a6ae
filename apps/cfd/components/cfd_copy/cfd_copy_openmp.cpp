// cfd_copy, OpenMP variant: dst = src, the elements shared by the team the generated OPENMP
// wrapper sets up.
#include "../cfd_copy.h"

void cfd_copy_openmp(const peppher::Vector<float>& src, peppher::Vector<float>& dst) {
  const long n = static_cast<long>(dst.size());
  const float* in = src.data();
  float* out = dst.data();
#pragma omp parallel for schedule(static)
  for (long k = 0; k < n; ++k) out[k] = in[k];
}
