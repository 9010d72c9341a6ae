/* bench/original: includes the suite's program PB_SUITE_FILE (an OpenMP .c file of
   PolyBench-ACC, found through the -I of the including file's descriptor) for its static
   functions (init_array, print_array, the kernel_* loop nest), at the sizes of pb_sizes.h
   (written by the run script). Define `main` to another name first: the suite's main is
   renamed away, never called. Its unused functions and its `#pragma scop` are not ours to
   warn about. */
#include "pb_sizes.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include PB_SUITE_FILE
#undef main
#pragma GCC diagnostic pop
