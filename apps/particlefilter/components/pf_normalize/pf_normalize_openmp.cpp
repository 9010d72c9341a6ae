// pf_normalize, OpenMP variant: the three sums on three threads (each in particle order), the
// weights' division shared out, then the cumulative sum in order: the CPU variant's bits.
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_normalize_openmp(const peppher::Vector<double>& x, const peppher::Vector<double>& y,
                         const peppher::Vector<double>& weights, int frame,
                         peppher::Scalar<int>& draw, peppher::Vector<double>& cdf,
                         peppher::Scalar<double>& u1, peppher::Vector<double>& track) {
  const long n = static_cast<long>(weights.size());
  const double* w = weights.data();
  const double* px = x.data();
  const double* py = y.data();
  double s = 0.0, sx = 0.0, sy = 0.0;
#pragma omp parallel sections
  {
#pragma omp section
    for (long i = 0; i < n; ++i) s = s + w[i];
#pragma omp section
    for (long i = 0; i < n; ++i) sx = sx + px[i] * w[i];
#pragma omp section
    for (long i = 0; i < n; ++i) sy = sy + py[i] * w[i];
  }
  track.data()[2 * frame] = sx / s;
  track.data()[2 * frame + 1] = sy / s;
  double* c = cdf.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) c[i] = w[i] / s;
  for (long i = 1; i < n; ++i) c[i] = c[i - 1] + c[i];
  int state = draw.get();
  u1.set(pf::randu(&state) / static_cast<double>(n));
  draw.set(state);
}
