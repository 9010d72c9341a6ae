// saxpy, CPU variant.
void saxpy_cpu(float a, const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
