// Particle filter (after Rodinia's particlefilter, written anew): the synthetic video, the
// disk of pixels a particle looks at, and a host reference, shared by the composed (main.cpp)
// and direct versions. Each frame moves every particle by the motion model, weighs it by the
// likelihood of the pixels around it, estimates the object's position as the weighted mean
// and resamples the particles from the cumulative weights.
#pragma once

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "../common/app_check.h"
#include "components/pf_particle.h"

namespace particlefilter {

inline const char* const kUsage = "particlefilter [rows] [cols] [frames] [particles] [block]";
constexpr int kRadius = 5;

/// Where the object is in frame @p k: it starts at the frame's centre and moves one row down
/// and two columns left a frame (the motion model's drift).
inline void object_at(int rows, int cols, int k, int* r, int* c) {
  *r = rows / 2 + k;
  *c = cols / 2 - 2 * k;
}

/// The disk's pixels: row and column offsets (pairs) within kRadius of the centre.
inline std::vector<int> disk() {
  std::vector<int> d;
  for (int dr = 1 - kRadius; dr < kRadius; ++dr)
    for (int dc = 1 - kRadius; dc < kRadius; ++dc)
      if (dr * dr + dc * dc < kRadius * kRadius) {
        d.push_back(dr);
        d.push_back(dc);
      }
  return d;
}

/// The video, rows x cols x frames (element (r, c, k) at (r cols + c) frames + k): background
/// 100, the object's disk 228, plus Gaussian noise (standard deviation 5).
inline std::vector<int> video(int rows, int cols, int frames) {
  std::vector<int> v(static_cast<std::size_t>(rows) * cols * frames, 100);
  for (int k = 0; k < frames; ++k) {
    int r0, c0;
    object_at(rows, cols, k, &r0, &c0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        if ((r - r0) * (r - r0) + (c - c0) * (c - c0) < kRadius * kRadius)
          v[(static_cast<std::size_t>(r) * cols + c) * frames + k] = 228;
  }
  std::mt19937 gen(7);
  std::normal_distribution<double> noise(0.0, 5.0);
  for (int& p : v) p += static_cast<int>(noise(gen));
  return v;
}

/// Each particle's own LCG state.
inline std::vector<int> seeds(int n) {
  std::vector<int> s(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) s[i] = 1 + 7919 * i;
  return s;
}
constexpr int kDrawSeed = 20111;  // the LCG of the resampling's offset

struct Result {
  std::vector<double> track;  // the estimate (row, column) of every frame from 1 on, 2 x frames
  std::vector<double> x, y;   // the particles after the last frame
};

/// The host's filter: the same operations in the same order as the components'.
inline Result reference(const std::vector<int>& vid, int rows, int cols, int frames, int n) {
  const std::vector<int> d = disk();
  const int ones = static_cast<int>(d.size() / 2);
  std::vector<int> seed = seeds(n);
  int draw = kDrawSeed;
  Result r;
  r.track.assign(2 * static_cast<std::size_t>(frames), 0.0);
  r.x.assign(static_cast<std::size_t>(n), rows / 2);
  r.y.assign(static_cast<std::size_t>(n), cols / 2);
  std::vector<double> w(n), cdf(n), xj(n), yj(n);
  const long long pixels = static_cast<long long>(vid.size());
  for (int k = 1; k < frames; ++k) {
    for (int i = 0; i < n; ++i) {  // pf_likelihood
      pf::move(&r.x[i], &r.y[i], &seed[i]);
      w[i] = pf::weight(vid.data(), cols, frames, pixels, d.data(), ones, k, r.x[i], r.y[i], n);
    }
    double s = 0.0, sx = 0.0, sy = 0.0;  // pf_normalize
    for (int i = 0; i < n; ++i) s = s + w[i];
    for (int i = 0; i < n; ++i) sx = sx + r.x[i] * w[i];
    for (int i = 0; i < n; ++i) sy = sy + r.y[i] * w[i];
    r.track[2 * k] = sx / s;
    r.track[2 * k + 1] = sy / s;
    for (int i = 0; i < n; ++i) cdf[i] = w[i] / s;
    for (int i = 1; i < n; ++i) cdf[i] = cdf[i - 1] + cdf[i];
    const double u1 = pf::randu(&draw) / n;
    for (int j = 0; j < n; ++j) {  // pf_resample
      const int i = pf::find_index(cdf.data(), n, u1 + j / static_cast<double>(n));
      xj[j] = r.x[i];
      yj[j] = r.y[i];
    }
    r.x.swap(xj);
    r.y.swap(yj);
  }
  return r;
}

/// Elements of the result that differ from the reference's, bit for bit.
inline long count_wrong(const double* track, const double* x, const double* y, int frames, int n,
                        const Result& want) {
  long wrong = 0;
  for (int e = 0; e < 2 * frames; ++e)
    wrong += std::memcmp(&track[e], &want.track[e], sizeof(double)) != 0 ? 1 : 0;
  for (int i = 0; i < n; ++i) {
    wrong += std::memcmp(&x[i], &want.x[i], sizeof(double)) != 0 ? 1 : 0;
    wrong += std::memcmp(&y[i], &want.y[i], sizeof(double)) != 0 ? 1 : 0;
  }
  return wrong;
}

/// The verdict's description: sizes, and the last estimate against where the object is.
inline void describe(char* what, std::size_t size, int rows, int cols, int frames, int n,
                     const double* track) {
  int r, c;
  object_at(rows, cols, frames - 1, &r, &c);
  std::snprintf(what, size,
                "%d x %d x %d frames, %d particles, last estimate (%.2f, %.2f), object at "
                "(%d, %d)",
                rows, cols, frames, n, track[2 * (frames - 1)], track[2 * (frames - 1) + 1], r, c);
}

}  // namespace particlefilter
