// pclip for blocks of 500 elements or more (constraint n >= 500): limits each element to [0, 1].
void pclip_large(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] < 0.0f ? 0.0f : x[i] > 1.0f ? 1.0f : x[i];
}
