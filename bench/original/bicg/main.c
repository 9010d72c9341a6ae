/* bench/original BICG: PolyBench-ACC's OpenMP bicg program (its init_array and
   print_array, from OpenMP/linear-algebra/kernels/bicg/bicg.c in the suite's folder) with its
   kernel call replaced by the composed bicg(), timed by PolyBench's own timer around that call as
   the originals time their kernel region. `bicg dump` prints the result to stderr the way the
   original's print_array does, after the timed region. */
#include <stdio.h>
#include <string.h>

#define PB_SUITE_FILE "bicg.c"
#define main bicg_suite_main
#include "pb_suite.h"
#include "peppher.h"

int main(int argc, char** argv) {
  /* `dump`: print the result as the original's print_array does, to stderr made buffered. */
  const int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
  if (dump) setvbuf(stderr, NULL, _IOFBF, 1 << 20);
  PEPPHER_INITIALIZE();
  int nx = NX, ny = NY;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_1D_ARRAY_DECL(s, DATA_TYPE, NY, ny);
  POLYBENCH_1D_ARRAY_DECL(q, DATA_TYPE, NX, nx);
  POLYBENCH_1D_ARRAY_DECL(p, DATA_TYPE, NY, ny);
  POLYBENCH_1D_ARRAY_DECL(r, DATA_TYPE, NX, nx);
  init_array(nx, ny, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(p));

  polybench_start_instruments;
  bicg(nx, ny, &(*A)[0][0], *s, *q, *p, *r);
  polybench_stop_instruments;
  polybench_print_instruments;

  if (dump) print_array(nx, ny, POLYBENCH_ARRAY(s), POLYBENCH_ARRAY(q));
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(s);
  POLYBENCH_FREE_ARRAY(q);
  POLYBENCH_FREE_ARRAY(p);
  POLYBENCH_FREE_ARRAY(r);
  PEPPHER_SHUTDOWN();
  return 0;
}
