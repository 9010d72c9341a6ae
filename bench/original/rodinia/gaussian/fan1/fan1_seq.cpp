// Gaussian's FAN1 sequential variant: the OpenMP variant's loop compiled without -fopenmp (its
// pragma ignored on purpose: -Wno-unknown-pragmas).
#define FAN1_VARIANT fan1_seq
#include "fan1_omp.cpp"
