// scale for n a multiple of 4 (specializes scale_cpu): doubles four elements a step.
void scale_cpu_by4(float* x, int n) {
  for (int i = 0; i < n; i += 4) {
    x[i] *= 2.0f;
    x[i + 1] *= 2.0f;
    x[i + 2] *= 2.0f;
    x[i + 3] *= 2.0f;
  }
}
