// Gaussian's FAN2 sequential variant: the OpenMP variant's loop compiled without -fopenmp (its
// pragma ignored on purpose: -Wno-unknown-pragmas).
#define FAN2_VARIANT fan2_seq
#include "fan2_omp.cpp"
