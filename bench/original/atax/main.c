/* bench/original ATAX: PolyBench-ACC's OpenMP atax program (its init_array and
   print_array, from OpenMP/linear-algebra/kernels/atax/atax.c in the suite's folder) with its
   kernel call replaced by the composed atax(), timed by PolyBench's own timer around that call as
   the originals time their kernel region. `atax dump` prints the result to stderr the way the
   original's print_array does, after the timed region. */
#include <stdio.h>
#include <string.h>

#define PB_SUITE_FILE "atax.c"
#define main atax_suite_main
#include "pb_suite.h"
#include "peppher.h"

int main(int argc, char** argv) {
  /* `dump`: print the result as the original's print_array does, to stderr made buffered. */
  const int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
  if (dump) setvbuf(stderr, NULL, _IOFBF, 1 << 20);
  PEPPHER_INITIALIZE();
  int nx = NX, ny = NY;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, NY, ny);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, NY, ny);
  POLYBENCH_1D_ARRAY_DECL(tmp, DATA_TYPE, NX, nx);
  init_array(nx, ny, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(x));

  polybench_start_instruments;
  atax(nx, ny, &(*A)[0][0], *x, *y, *tmp);
  polybench_stop_instruments;
  polybench_print_instruments;

  if (dump) print_array(nx, POLYBENCH_ARRAY(y));
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(y);
  POLYBENCH_FREE_ARRAY(tmp);
  PEPPHER_SHUTDOWN();
  return 0;
}
