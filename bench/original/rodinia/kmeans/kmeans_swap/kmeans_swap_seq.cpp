// k-means' transposition, sequential: the OpenMP variant's loop compiled without -fopenmp (its
// pragma ignored on purpose: -Wno-unknown-pragmas).
#define KMEANS_SWAP_VARIANT kmeans_swap_seq
#include "kmeans_swap_omp.cpp"
