/* bench/original FDTD-2D: PolyBench-ACC's OpenMP fdtd-2d program (its init_array and
   print_array, from OpenMP/stencils/fdtd-2d/fdtd-2d.c in the suite's folder) with its kernel
   call replaced by the composed fdtd_2d(), timed by PolyBench's own timer around that call as
   the originals time their kernel region. `fdtd-2d dump` prints the result to stderr the way the
   original's print_array does, after the timed region. */
#include <stdio.h>
#include <string.h>

#define PB_SUITE_FILE "fdtd-2d.c"
#define main fdtd_2d_suite_main
#include "pb_suite.h"
#include "peppher.h"

int main(int argc, char** argv) {
  /* `dump`: print the result as the original's print_array does, to stderr made buffered. */
  const int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
  if (dump) setvbuf(stderr, NULL, _IOFBF, 1 << 20);
  PEPPHER_INITIALIZE();
  int tmax = TMAX, nx = NX, ny = NY;
  POLYBENCH_2D_ARRAY_DECL(ex, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_2D_ARRAY_DECL(ey, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_2D_ARRAY_DECL(hz, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_1D_ARRAY_DECL(fict, DATA_TYPE, TMAX, tmax);
  init_array(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz),
             POLYBENCH_ARRAY(fict));

  polybench_start_instruments;
  fdtd_2d(tmax, nx, ny, &(*ex)[0][0], &(*ey)[0][0], &(*hz)[0][0], *fict);
  polybench_stop_instruments;
  polybench_print_instruments;

  if (dump) print_array(nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz));
  POLYBENCH_FREE_ARRAY(ex);
  POLYBENCH_FREE_ARRAY(ey);
  POLYBENCH_FREE_ARRAY(hz);
  POLYBENCH_FREE_ARRAY(fict);
  PEPPHER_SHUTDOWN();
  return 0;
}
