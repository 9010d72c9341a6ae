// Scales data[0..n) by peppher_factor.
void scale_cpu(float* data, int n, float peppher_factor, int) {
  for (int i = 0; i < n; ++i) data[i] *= peppher_factor;
}
