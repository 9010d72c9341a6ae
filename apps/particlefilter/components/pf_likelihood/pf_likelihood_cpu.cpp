// pf_likelihood, CPU variant: each particle of the block moves (its own LCG state) and gets
// its weight from the frame's pixels around it (pf_particle.h).
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_likelihood_cpu(const peppher::Vector<int>& video, const peppher::Vector<int>& disk,
                       int frame, int cols, int frames, int particles, int,
                       peppher::Vector<double>& x, peppher::Vector<double>& y,
                       peppher::Vector<int>& seed, peppher::Vector<double>& weights) {
  const int ones = static_cast<int>(disk.size() / 2);
  const auto pixels = static_cast<long long>(video.size());
  double* px = x.data();
  double* py = y.data();
  int* s = seed.data();
  double* w = weights.data();
  for (std::size_t i = 0; i < x.size(); ++i) {
    pf::move(&px[i], &py[i], &s[i]);
    w[i] = pf::weight(video.data(), cols, frames, pixels, disk.data(), ones, frame, px[i], py[i],
                      particles);
  }
}
