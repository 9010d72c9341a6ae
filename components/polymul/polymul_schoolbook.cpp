// polymul, schoolbook CPU variant: c = a * b, the product of two polynomials of n
// coefficients each (c has 2n-1 coefficients, overwritten). O(n^2): c is cleared, then each
// a[i] * b[0..n) is accumulated into c[i..i+n) (unit stride over b and c). No allocation.
// Called by the generated CPU backend wrapper with pointers to the worker's copies.

void polymul_schoolbook(const double* a, const double* b, double* c, int n) {
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
