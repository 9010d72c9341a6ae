// k-means' membership pass, sequential variant: the OpenMP variant compiled without -fopenmp
// (its pragma ignored on purpose: -Wno-unknown-pragmas).
#define KMEANS_ASSIGN_VARIANT kmeans_assign_seq
#include "kmeans_assign_omp.cpp"
