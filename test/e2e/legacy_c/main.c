/* A small legacy C99 simulation: damped particles advanced in time, state printed before
   and after. It knows nothing about PEPPHER; legacy_test.cpp composes it with three added
   lines.   ./particles_c [n] [steps] */
#include <stdio.h>
#include <stdlib.h>

#include "kernels.h"

static void print_state(const char* label, const float* x, const float* v, int n) {
  double sum_x = 0.0, sum_v = 0.0;
  for (int i = 0; i < n; ++i) {
    sum_x += x[i];
    sum_v += v[i];
  }
  printf("%s: %d particles, sum x = %.9g, sum v = %.9g\n", label, n, sum_x, sum_v);
  const int samples[] = {0, 1, n / 3, n / 2, n - 1};
  for (int k = 0; k < 5; ++k) {
    const int i = samples[k];
    if (i >= 0 && i < n) printf("  particle %d: x = %.9g, v = %.9g\n", i, x[i], v[i]);
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  const int steps = argc > 2 ? atoi(argv[2]) : 6;
  float* x = malloc(sizeof(float) * (size_t)n);
  float* v = malloc(sizeof(float) * (size_t)n);
  if (x == NULL || v == NULL) return 1;
  for (int i = 0; i < n; ++i) {
    x[i] = (float)((i * 37) % 201 - 100);
    v[i] = (float)((i * 13) % 17 - 8);
  }
  print_state("initial", x, v, n);
  /* Velocities in units of two positions per step; powers-of-two factors keep every
     operation exact in float. */
  vector_scale(v, n, 0.5f);
  for (int s = 0; s < steps; ++s) {
    axpy(0.5f, v, x, n);
    vector_scale(v, n, 0.75f);
  }
  print_state("final", x, v, n);
  free(x);
  free(v);
  return 0;
}
