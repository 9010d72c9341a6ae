/* OpenMP variant: the same loop nest of PolyBench-ACC's OpenMP correlation with its pragmas
   (compiled with -fopenmp), run on a combined worker with one thread per core. */
#define PB_SUITE_FILE "correlation.c"
#define main correlation_omp_suite_main
#include "pb_suite.h"

void correlation_omp(int m, int n, float float_n, float* data, float* symmat, float* mean,
                     float* stddev) {
  kernel_correlation(m, n, float_n, (DATA_TYPE(*)[N])data, (DATA_TYPE(*)[M])symmat, mean, stddev);
}
