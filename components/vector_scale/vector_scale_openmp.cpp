// vector_scale, OpenMP variant: arr[i] *= factor, the loop shared by the team of threads
// the generated OPENMP wrapper sets up for the StarPU parallel task (one per core it holds).

void vector_scale_openmp(float* arr, int size, float factor) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < size; ++i) arr[i] *= factor;
}
