// The per-particle rules of the particle filter's CPU, OpenMP and CUDA variants (the OpenCL
// kernels repeat them operation for operation): Rodinia's LCG and Box-Muller draws, the motion
// model, the likelihood over the disk's pixels, the resampling search. exp, log and cos are
// written out in +, -, *, / and floor (each rounded the same on every device), so that every
// device computes the same bits; sqrt is correctly rounded everywhere.
#pragma once

#ifdef __CUDACC__
#define PF_HD __host__ __device__
#else
#include <cmath>
#define PF_HD
#endif

namespace pf {

constexpr int kRandM = 2147483647;  // Rodinia's LCG: GCC's multiplier and increment, mod INT_MAX
constexpr double kLn2 = 0.6931471805599453;
constexpr double kTwoPi = 6.283185307179586;

/// The next uniform draw in (0, 1] of the LCG whose state is @p seed (advanced).
PF_HD inline double randu(int* seed) {
  const int num = static_cast<int>(1103515245u * static_cast<unsigned>(*seed) + 12345u);
  *seed = num % kRandM;
  const int s = *seed < 0 ? -*seed : *seed;
  return (s == 0 ? 1 : s) / static_cast<double>(kRandM);
}

/// log(u) for u in (0, 1]: u = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s).
PF_HD inline double log_unit(double u) {
  double m = u;
  int e = 0;
  while (m < 0.7071067811865476) {
    m = m * 2.0;
    e = e - 1;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double t = 0.0;
  for (int k = 21; k >= 1; k -= 2) t = t * s2 + 1.0 / k;
  return e * kLn2 + 2.0 * s * t;
}

/// exp(x) for |x| <= 700: x = n ln2 + r, exp(r) by Taylor (Horner), times 2^n exactly.
PF_HD inline double exp_bounded(double x) {
  const double nd = floor(x / kLn2 + 0.5);
  const double r = x - nd * kLn2;
  double t = 1.0;
  for (int k = 17; k >= 1; --k) t = 1.0 + t * r / k;
  const int n = static_cast<int>(nd);
  double p = 1.0;
  double b = n < 0 ? 0.5 : 2.0;
  for (int m = n < 0 ? -n : n; m != 0; m = m / 2) {
    if (m % 2 != 0) p = p * b;
    b = b * b;
  }
  return t * p;
}

/// cos(2 pi v): reduced to [-pi, pi], then Taylor (Horner).
PF_HD inline double cos_2pi(double v) {
  const double x = kTwoPi * (v - floor(v + 0.5));
  const double x2 = x * x;
  double t = 1.0;
  for (int k = 15; k >= 1; --k) t = 1.0 - (x2 / ((2.0 * k - 1.0) * (2.0 * k))) * t;
  return t;
}

/// A normal draw (Box-Muller) from the LCG @p seed.
PF_HD inline double randn(int* seed) {
  const double u = randu(seed);
  const double v = randu(seed);
  return sqrt(-2.0 * log_unit(u)) * cos_2pi(v);
}

/// The motion model (Rodinia's random walk: rows drift +1, columns -2 a frame).
PF_HD inline void move(double* x, double* y, int* seed) {
  *x = *x + 1.0 + 5.0 * randn(seed);
  *y = *y - 2.0 + 2.0 * randn(seed);
}

/// The nearest pixel coordinate (half up), kept inside +-1e6.
PF_HD inline long long pixel(double v) {
  const double c = v < -1.0e6 ? -1.0e6 : (v > 1.0e6 ? 1.0e6 : v);
  return static_cast<long long>(floor(c + 0.5));
}

/// The weight of a particle at (@p x, @p y) in frame @p frame of a rows x cols x frames
/// video (element (r, c, k) at (r cols + c) frames + k): 1/n times the exponential of the mean
/// log-likelihood ratio, foreground 228 against background 100, over the disk's pixels
/// (@p disk: @p ones pairs of row and column offsets).
PF_HD inline double weight(const int* video, int cols, int frames, long long pixels,
                           const int* disk, int ones, int frame, double x, double y, int n) {
  const long long r = pixel(x), c = pixel(y);
  double l = 0.0;
  for (int d = 0; d < ones; ++d) {
    long long ind = (r + disk[2 * d]) * cols * frames + (c + disk[2 * d + 1]) * frames + frame;
    if (ind < 0) ind = -ind;
    if (ind >= pixels) ind = 0;
    const double a = video[ind] - 100.0;
    const double b = video[ind] - 228.0;
    l = l + (a * a - b * b) / 50.0;
  }
  l = l / ones;
  l = l < -700.0 ? -700.0 : (l > 700.0 ? 700.0 : l);
  return (1.0 / n) * exp_bounded(l);
}

/// The first index whose cumulative weight reaches @p u (the last when none does).
PF_HD inline int find_index(const double* cdf, int n, double u) {
  for (int i = 0; i < n; ++i)
    if (cdf[i] >= u) return i;
  return n - 1;
}

}  // namespace pf
