/* bench/original GEMM: PolyBench-ACC's OpenMP GEMM program (its init_array and print_array,
   from OpenMP/linear-algebra/kernels/gemm/gemm.c in the suite's folder) with its kernel call
   replaced by the composed gemm(), timed by PolyBench's own timer around that call as the
   originals time their kernel region. `gemm dump` prints the result to stderr the way the
   original's print_array does, after the timed region. */
#include <stdio.h>
#include <string.h>

#define PB_SUITE_FILE "gemm.c"
#define main gemm_suite_main
#include "pb_suite.h"
#include "peppher.h"

int main(int argc, char** argv) {
  /* `dump`: print the result as the original's print_array does, to stderr made buffered. */
  const int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
  if (dump) setvbuf(stderr, NULL, _IOFBF, 1 << 20);
  PEPPHER_INITIALIZE();
  int ni = NI, nj = NJ, nk = NK;
  DATA_TYPE alpha, beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
  init_array(ni, nj, nk, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  gemm(&(*A)[0][0], &(*B)[0][0], &(*C)[0][0], alpha, beta, ni, nj, nk);
  polybench_stop_instruments;
  polybench_print_instruments;

  if (dump) print_array(ni, nj, POLYBENCH_ARRAY(C));
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  PEPPHER_SHUTDOWN();
  return 0;
}
