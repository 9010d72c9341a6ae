// The sequential variant of grow: 200 dependent steps per element (the time grows with n),
// then adds 1.
void grow_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    for (int s = 0; s < 200; ++s) v = v * 0.999f + 0.001f;
    x[i] = v + 1.0f;
  }
}
