/* The program's kernel library: straightforward sequential loops (see kernels.h). */
#include "kernels.h"

void axpy(float a, const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

void vector_scale(float* arr, int size, float factor) {
  for (int i = 0; i < size; ++i) arr[i] *= factor;
}
