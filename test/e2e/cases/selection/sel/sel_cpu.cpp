// The CPU variant of sel, for small calls (constraint n < 1000): adds 1 to each element.
void sel_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] += 1.0f;
}
