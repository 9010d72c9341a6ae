// pf_likelihood, OpenMP variant: the particles of the block shared out among the threads
// (each particle's draws and weight are the CPU variant's).
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_likelihood_openmp(const peppher::Vector<int>& video, const peppher::Vector<int>& disk,
                          int frame, int cols, int frames, int particles, int,
                          peppher::Vector<double>& x, peppher::Vector<double>& y,
                          peppher::Vector<int>& seed, peppher::Vector<double>& weights) {
  const int ones = static_cast<int>(disk.size() / 2);
  const auto pixels = static_cast<long long>(video.size());
  const int* v = video.data();
  const int* d = disk.data();
  double* px = x.data();
  double* py = y.data();
  int* s = seed.data();
  double* w = weights.data();
  const long n = static_cast<long>(x.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    pf::move(&px[i], &py[i], &s[i]);
    w[i] = pf::weight(v, cols, frames, pixels, d, ones, frame, px[i], py[i], particles);
  }
}
