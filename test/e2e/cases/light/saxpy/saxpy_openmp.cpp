// saxpy, OpenMP variant: the loop shared by the StarPU parallel task's threads.

void saxpy_openmp(float a, const float* x, float* y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
