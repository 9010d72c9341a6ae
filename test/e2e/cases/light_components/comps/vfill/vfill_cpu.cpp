// vfill, sequential.
void vfill_cpu(float* x, int n, float first, float step) {
  for (int i = 0; i < n; ++i) x[i] = first + static_cast<float>(i) * step;
}
