/* Sequential variant: PolyBench-ACC's loop nest kernel_correlation
   (OpenMP/datamining/correlation/correlation.c, read from the suite's folder) compiled without
   -fopenmp, as the sequential original is. The suite's main is renamed away: only its static
   functions are used. */
#define PB_SUITE_FILE "correlation.c"
#define main correlation_seq_suite_main
#include "pb_suite.h"

void correlation_seq(int m, int n, float float_n, float* data, float* symmat, float* mean,
                     float* stddev) {
  kernel_correlation(m, n, float_n, (DATA_TYPE(*)[N])data, (DATA_TYPE(*)[M])symmat, mean, stddev);
}
