// fill: a = 1 everywhere.
void fill_cpu(float* a, long long n) {
  for (long long i = 0; i < n; ++i) a[i] = 1.0f;
}
