// polymul: FFT variant. c = a * b through one complex FFT of size N >= 2n-1 (a in the real
// part, b in the imaginary part), a pointwise square and one inverse FFT: O(n log n) with a
// large constant, so it loses to schoolbook on small n and wins clearly on large n.
#include <peppher/vector.h>

#include <cmath>
#include <complex>
#include <vector>

namespace {

using Complex = std::complex<double>;

// In-place iterative radix-2 FFT; `inverse` uses the conjugate roots (no 1/N scaling).
void fft(std::vector<Complex>& v, bool inverse) {
  const size_t n = v.size();
  for (size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(v[i], v[j]);
  }
  const double pi = std::acos(-1.0);
  for (size_t len = 2; len <= n; len <<= 1) {
    const double angle = 2 * pi / static_cast<double>(len) * (inverse ? 1 : -1);
    const Complex step(std::cos(angle), std::sin(angle));
    for (size_t start = 0; start < n; start += len) {
      Complex w(1, 0);
      for (size_t k = 0; k < len / 2; ++k) {
        const Complex u = v[start + k];
        const Complex t = w * v[start + k + len / 2];
        v[start + k] = u + t;
        v[start + k + len / 2] = u - t;
        w *= step;
      }
    }
  }
}

}  // namespace

static void polymul_fft_raw(const double* a, const double* b, double* c, int n) {
  if (n <= 0) return;
  size_t size = 1;
  while (size < static_cast<size_t>(2 * n - 1)) size <<= 1;
  std::vector<Complex> v(size);
  for (int i = 0; i < n; ++i) v[i] = Complex(a[i], b[i]);
  fft(v, false);
  // With z = a + ib, z^2 = a^2 - b^2 + 2i ab: the product is Im(z^2) / 2.
  for (Complex& x : v) x *= x;
  fft(v, true);
  const double scale = 0.5 / static_cast<double>(size);
  for (int i = 0; i < 2 * n - 1; ++i) c[i] = v[i].imag() * scale;
}

// The variant: the interface's operands are Vector views of the worker's copies.
void polymul_fft(const peppher::Vector<double>& a, const peppher::Vector<double>& b,
                 peppher::Vector<double>& c, int n) {
  polymul_fft_raw(a.data(), b.data(), c.data(), n);
}
