/* OpenMP variant: the same loop nest of PolyBench-ACC's OpenMP GEMM with its pragmas
   (compiled with -fopenmp), run on a combined worker with one thread per core. */
#define PB_SUITE_FILE "gemm.c"
#define main gemm_omp_suite_main
#include "pb_suite.h"

void gemm_omp(const float* a, const float* b, float* c, float alpha, float beta, int ni, int nj,
              int nk) {
  kernel_gemm(ni, nj, nk, alpha, beta, (DATA_TYPE(*)[NJ])c, (DATA_TYPE(*)[NK])a,
              (DATA_TYPE(*)[NJ])b);
}
