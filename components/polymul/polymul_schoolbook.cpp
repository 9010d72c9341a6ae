// polymul, schoolbook CPU variant: c = a * b, the product of two polynomials of n
// coefficients each (c has 2n-1 coefficients, overwritten). O(n^2): c is cleared, then each
// a[i] * b[0..n) is accumulated into c[i..i+n) (unit stride over b and c). No allocation.
// The generated CPU backend wrapper passes Vector views of the worker's copies.

#include <peppher/vector.h>

static void polymul_schoolbook_raw(const double* a, const double* b, double* c, int n) {
  if (n <= 0) return;
  const double* __restrict pa = a;
  const double* __restrict pb = b;
  double* __restrict pc = c;
  for (int k = 0; k < 2 * n - 1; ++k) pc[k] = 0.0;
  for (int i = 0; i < n; ++i) {
    const double ai = pa[i];
    double* __restrict row = pc + i;
    for (int j = 0; j < n; ++j) row[j] += ai * pb[j];
  }
}

// The variant: the interface's operands are Vector views of the worker's copies.
void polymul_schoolbook(const peppher::Vector<double>& a, const peppher::Vector<double>& b,
                        peppher::Vector<double>& c, int n) {
  polymul_schoolbook_raw(a.data(), b.data(), c.data(), n);
}
