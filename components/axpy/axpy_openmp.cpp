// axpy, OpenMP variant: y[i] = a * x[i] + y[i], the loop shared by the team of threads the
// generated OPENMP wrapper sets up for the StarPU parallel task.

void axpy_openmp(float a, const float* x, float* y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
