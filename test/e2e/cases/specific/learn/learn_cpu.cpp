// The general variant of learn (history model): doubles each element.
void learn_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
