// static: no other file can call it
static void scale_static(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
