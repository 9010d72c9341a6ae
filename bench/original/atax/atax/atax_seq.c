/* Sequential variant: PolyBench-ACC's loop nest kernel_atax
   (OpenMP/linear-algebra/kernels/atax/atax.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#include "pb_sizes.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#define main atax_seq_suite_main
#include "atax.c"
#undef main
#pragma GCC diagnostic pop

void atax_seq(int nx, int ny, const float* A, const float* x, float* y, float* tmp) {
  kernel_atax(nx, ny, (DATA_TYPE(*)[NY])A, (DATA_TYPE*)x, y, tmp);
}
