// ratio: scales a by n / m; its constraint divides by m.
void ratio_cpu(float* a, int n, int m) {
  for (int i = 0; i < n; ++i) a[i] = a[i] * static_cast<float>(n) / static_cast<float>(m);
}
