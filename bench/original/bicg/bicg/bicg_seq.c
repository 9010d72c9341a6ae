/* Sequential variant: PolyBench-ACC's loop nest kernel_bicg
   (OpenMP/linear-algebra/kernels/bicg/bicg.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#define PB_SUITE_FILE "bicg.c"
#define main bicg_seq_suite_main
#include "pb_suite.h"

void bicg_seq(int nx, int ny, const float* A, float* s, float* q, const float* p, const float* r) {
  kernel_bicg(nx, ny, (DATA_TYPE(*)[NY])A, s, q, (DATA_TYPE*)p, (DATA_TYPE*)r);
}
