// accumulate, CPU variant: total += scale * sum(x); total is the worker's copy.
void accumulate_cpu(const float* x, int n, float& total, const float& scale) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += x[i];
  total += scale * static_cast<float>(sum);
}
