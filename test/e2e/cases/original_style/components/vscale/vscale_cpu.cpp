void vscale_cpu(float* arr, int n, float factor) {
  for (int i = 0; i < n; ++i) arr[i] *= factor;
}
