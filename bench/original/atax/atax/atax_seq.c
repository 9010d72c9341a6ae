/* Sequential variant: PolyBench-ACC's loop nest kernel_atax
   (OpenMP/linear-algebra/kernels/atax/atax.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#define PB_SUITE_FILE "atax.c"
#define main atax_seq_suite_main
#include "pb_suite.h"

void atax_seq(int nx, int ny, const float* A, const float* x, float* y, float* tmp) {
  kernel_atax(nx, ny, (DATA_TYPE(*)[NY])A, (DATA_TYPE*)x, y, tmp);
}
