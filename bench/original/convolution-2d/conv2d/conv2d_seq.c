/* Sequential variant: PolyBench-ACC's loop nest kernel_conv2d
   (OpenMP/stencils/convolution-2d/convolution-2d.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#include "pb_sizes.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#define main conv2d_seq_suite_main
#include "convolution-2d.c"
#undef main
#pragma GCC diagnostic pop

void conv2d_seq(const float* A, float* B, int ni, int nj) {
  kernel_conv2d(ni, nj, (DATA_TYPE(*)[NJ])A, (DATA_TYPE(*)[NJ])B);
}
