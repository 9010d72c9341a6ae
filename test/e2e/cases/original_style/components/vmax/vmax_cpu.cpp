template <typename T>
void vmax_cpu(const T* in, int n, T* out) {
  T m = in[0];
  for (int i = 1; i < n; ++i)
    if (in[i] > m) m = in[i];
  *out = m;
}
