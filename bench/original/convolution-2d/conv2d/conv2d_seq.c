/* Sequential variant: PolyBench-ACC's loop nest kernel_conv2d
   (OpenMP/stencils/convolution-2d/convolution-2d.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#define PB_SUITE_FILE "convolution-2d.c"
#define main conv2d_seq_suite_main
#include "pb_suite.h"

void conv2d_seq(const float* A, float* B, int ni, int nj) {
  kernel_conv2d(ni, nj, (DATA_TYPE(*)[NJ])A, (DATA_TYPE(*)[NJ])B);
}
