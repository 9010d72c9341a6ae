// LUD's sequential variant: the OpenMP variant's step compiled without -fopenmp (its pragmas
// ignored on purpose: -Wno-unknown-pragmas), as Rodinia's OpenMP program built without it is
// the sequential original.
#define LUD_VARIANT lud_step_seq
#include "lud_step_omp.cpp"
