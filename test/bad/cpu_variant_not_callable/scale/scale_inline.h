// a header-only library function
inline void scale_inline(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
