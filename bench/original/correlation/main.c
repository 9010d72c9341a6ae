/* bench/original CORRELATION: PolyBench-ACC's OpenMP correlation program (its init_array and
   print_array, from OpenMP/datamining/correlation/correlation.c in the suite's folder) with its
   kernel call replaced by the composed correlation(), timed by PolyBench's own timer around that
   call as the originals time their kernel region. `correlation dump` prints the result to stderr
   the way the original's print_array does, after the timed region. */
#include <stdio.h>
#include <string.h>

#define PB_SUITE_FILE "correlation.c"
#define main correlation_suite_main
#include "pb_suite.h"
#include "peppher.h"

int main(int argc, char** argv) {
  /* `dump`: print the result as the original's print_array does, to stderr made buffered. */
  const int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
  if (dump) setvbuf(stderr, NULL, _IOFBF, 1 << 20);
  PEPPHER_INITIALIZE();
  int m = M, n = N;
  DATA_TYPE float_n;
  POLYBENCH_2D_ARRAY_DECL(data, DATA_TYPE, M, N, m, n);
  POLYBENCH_2D_ARRAY_DECL(symmat, DATA_TYPE, M, M, m, m);
  POLYBENCH_1D_ARRAY_DECL(mean, DATA_TYPE, M, m);
  POLYBENCH_1D_ARRAY_DECL(stddev, DATA_TYPE, M, m);
  init_array(m, n, &float_n, POLYBENCH_ARRAY(data));

  polybench_start_instruments;
  correlation(m, n, float_n, &(*data)[0][0], &(*symmat)[0][0], *mean, *stddev);
  polybench_stop_instruments;
  polybench_print_instruments;

  if (dump) print_array(m, POLYBENCH_ARRAY(symmat));
  POLYBENCH_FREE_ARRAY(data);
  POLYBENCH_FREE_ARRAY(symmat);
  POLYBENCH_FREE_ARRAY(mean);
  POLYBENCH_FREE_ARRAY(stddev);
  PEPPHER_SHUTDOWN();
  return 0;
}
