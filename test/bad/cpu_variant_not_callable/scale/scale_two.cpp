namespace fast {
void scale_two(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
}  // namespace fast
namespace exact {
void scale_two(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] + x[i];
}
}  // namespace exact
