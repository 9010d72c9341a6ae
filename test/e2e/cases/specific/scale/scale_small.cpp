// scale for short vectors (priority 1): doubles each element, n < 64.
void scale_small(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
