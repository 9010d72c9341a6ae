// PathFinder's sequential variant: the OpenMP variant's loop nest compiled without -fopenmp
// (its pragma ignored on purpose: -Wno-unknown-pragmas), as Rodinia's OpenMP program built
// without it is the sequential original.
#define DYNPROC_VARIANT dynproc_seq
#include "dynproc_omp.cpp"
