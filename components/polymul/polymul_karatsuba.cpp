// polymul, Karatsuba CPU variant: c = a * b, the product of two polynomials of n
// coefficients each (c has 2n-1 coefficients, overwritten). O(n^log2(3)) ~ O(n^1.58).
// Split a = a0 + x^m a1 (m = n/2 low coefficients, h = n-m >= m high ones), likewise b:
//   z0 = a0*b0 goes to c[0..2m-1), z2 = a1*b1 to c[2m..2n-1) (c[2m-1] = 0), then
//   z1 = (a0+a1)(b0+b1) - z0 - z2 is added at c[m..). Correct for any n >= 1 (odd too).
// Below KARATSUBA_BASE (8) coefficients it falls back to its own schoolbook loop (this file
// is self-contained); the base is deliberately small, so the cost crosses that of
// polymul_schoolbook at a few hundred coefficients rather than at a few dozen. Scratch (the
// sums and z1 of every level, about 4n doubles) is allocated once per call.
// The generated CPU backend wrapper passes Vector views of the worker's copies.
#include <peppher/vector.h>

#include <cstddef>
#include <vector>

namespace {

constexpr int KARATSUBA_BASE = 8;  // n < KARATSUBA_BASE: schoolbook (leaves of 4..7)

void schoolbook(const double* __restrict a, const double* __restrict b, double* __restrict c,
                int n) {
  for (int k = 0; k < 2 * n - 1; ++k) c[k] = 0.0;
  for (int i = 0; i < n; ++i) {
    const double ai = a[i];
    double* __restrict row = c + i;
    for (int j = 0; j < n; ++j) row[j] += ai * b[j];
  }
}

// Scratch doubles used by karatsuba(n) and all its recursive calls.
std::size_t scratch_size(int n) {
  std::size_t total = 0;
  while (n >= KARATSUBA_BASE) {
    const int h = n - n / 2;
    total += static_cast<std::size_t>(4 * h - 1);
    n = h;
  }
  return total;
}

void karatsuba(const double* a, const double* b, double* c, int n, double* scratch) {
  if (n < KARATSUBA_BASE) {
    schoolbook(a, b, c, n);
    return;
  }
  const int m = n / 2;   // low half
  const int h = n - m;   // high half, h == m or m + 1
  double* sa = scratch;  // a0 + a1, h coefficients
  double* sb = sa + h;   // b0 + b1, h coefficients
  double* z1 = sb + h;   // 2h-1 coefficients
  double* rest = z1 + (2 * h - 1);

  // z0 and z2 straight into c; the coefficient between them is zero.
  karatsuba(a, b, c, m, rest);
  c[2 * m - 1] = 0.0;
  karatsuba(a + m, b + m, c + 2 * m, h, rest);

  for (int i = 0; i < m; ++i) {
    sa[i] = a[i] + a[m + i];
    sb[i] = b[i] + b[m + i];
  }
  if (h > m) {
    sa[m] = a[m + m];
    sb[m] = b[m + m];
  }
  karatsuba(sa, sb, z1, h, rest);

  const double* z0 = c;
  const double* z2 = c + 2 * m;
  for (int i = 0; i < 2 * m - 1; ++i) z1[i] -= z0[i];
  for (int i = 0; i < 2 * h - 1; ++i) z1[i] -= z2[i];
  double* mid = c + m;  // c[m .. m+2h-1) lies inside c[0 .. 2n-1)
  for (int i = 0; i < 2 * h - 1; ++i) mid[i] += z1[i];
}

}  // namespace

static void polymul_karatsuba_raw(const double* a, const double* b, double* c, int n) {
  if (n <= 0) return;
  if (n < KARATSUBA_BASE) {
    schoolbook(a, b, c, n);
    return;
  }
  std::vector<double> scratch(scratch_size(n));
  karatsuba(a, b, c, n, scratch.data());
}

// The variant: the interface's operands are Vector views of the worker's copies.
void polymul_karatsuba(const peppher::Vector<double>& a, const peppher::Vector<double>& b,
                       peppher::Vector<double>& c, int n) {
  polymul_karatsuba_raw(a.data(), b.data(), c.data(), n);
}
