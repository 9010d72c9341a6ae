/* The program's small BLAS-like kernel library: y = a*x + y and in-place scaling.
   Declarations only; kernels.c holds the plain loops. */
#ifndef LEGACY_C_KERNELS_H
#define LEGACY_C_KERNELS_H

void axpy(float a, const float* x, float* y, int n);
void vector_scale(float* arr, int size, float factor);

#endif
