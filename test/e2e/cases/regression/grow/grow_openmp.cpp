// The OpenMP variant of grow: grow_cpu's steps, the elements shared by the team.
void grow_openmp(float* x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    for (int s = 0; s < 200; ++s) v = v * 0.999f + 0.001f;
    x[i] = v + 1.0f;
  }
}
