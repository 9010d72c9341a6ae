// axpy, sequential CPU variant: y[i] = a * x[i] + y[i] for 0 <= i < n.
// Called by the generated CPU backend wrapper with pointers to the worker's copies.

void axpy_cpu(float a, const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
