/* Sequential variant: PolyBench-ACC's loop nest kernel_fdtd_2d (OpenMP/stencils/fdtd-2d/fdtd-2d.c,
   read from the suite's folder) compiled without -fopenmp, as the sequential original is.
   The suite's main is renamed away: only its static functions are used. */
#define PB_SUITE_FILE "fdtd-2d.c"
#define main fdtd_2d_seq_suite_main
#include "pb_suite.h"

void fdtd_2d_seq(int tmax, int nx, int ny, float* ex, float* ey, float* hz, const float* fict) {
  kernel_fdtd_2d(tmax, nx, ny, (DATA_TYPE(*)[NY])ex, (DATA_TYPE(*)[NY])ey, (DATA_TYPE(*)[NY])hz,
                 (DATA_TYPE*)fict);
}
