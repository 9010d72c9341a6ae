/* OpenMP variant: the same loop nest of PolyBench-ACC's OpenMP convolution-2d with its pragmas
   (compiled with -fopenmp), run on a combined worker with one thread per core. */
#define PB_SUITE_FILE "convolution-2d.c"
#define main conv2d_omp_suite_main
#include "pb_suite.h"

void conv2d_omp(const float* A, float* B, int ni, int nj) {
  kernel_conv2d(ni, nj, (DATA_TYPE(*)[NJ])A, (DATA_TYPE(*)[NJ])B);
}
