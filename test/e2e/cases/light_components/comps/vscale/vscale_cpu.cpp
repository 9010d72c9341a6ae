// vscale, sequential.
void vscale_cpu(float* x, int n, float factor) {
  for (int i = 0; i < n; ++i) x[i] *= factor;
}
