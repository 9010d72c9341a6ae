/* Sequential variant: PolyBench-ACC's loop nest kernel_gemm (OpenMP/linear-algebra/kernels/
   gemm/gemm.c, read from the suite's folder) compiled without -fopenmp, as the sequential
   original is. The suite's main is renamed away: only its static functions are used. */
#define PB_SUITE_FILE "gemm.c"
#define main gemm_seq_suite_main
#include "pb_suite.h"

void gemm_seq(const float* a, const float* b, float* c, float alpha, float beta, int ni, int nj,
              int nk) {
  kernel_gemm(ni, nj, nk, alpha, beta, (DATA_TYPE(*)[NJ])c, (DATA_TYPE(*)[NK])a,
              (DATA_TYPE(*)[NJ])b);
}
