namespace {
void scale_anon(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
}  // namespace
