/* bench/original/rodinia: writes a deterministic k-means input (the suite's kdd_cup data set is
   not here) in the text format its programs read, "<id> <f1> ... <fN>" a line:
     rd_gen_points NPOINTS NFEATURES FILE
   Points scattered around 5 centres in [0, 1)^N (a fixed LCG: the same file everywhere). */
#include <stdio.h>
#include <stdlib.h>

static unsigned long state = 20151212u;
static double uniform(void) {
  state = state * 1103515245u + 12345u;
  return (double)((state >> 16) & 0x7fff) / 32768.0;
}

int main(int argc, char** argv) {
  if (argc != 4 || atol(argv[1]) < 1 || atoi(argv[2]) < 1 || atoi(argv[2]) > 64) {
    fprintf(stderr, "usage: rd_gen_points NPOINTS NFEATURES(1-64) FILE\n");
    return 2;
  }
  const long n = atol(argv[1]);
  const int f = atoi(argv[2]);
  FILE* out = fopen(argv[3], "w");
  if (!out) {
    fprintf(stderr, "rd_gen_points: cannot write %s\n", argv[3]);
    return 1;
  }
  double centre[5][64];
  for (int c = 0; c < 5; c++)
    for (int j = 0; j < f; j++) centre[c][j] = uniform();
  for (long i = 0; i < n; i++) {
    const int c = (int)(uniform() * 5) % 5;
    fprintf(out, "%ld", i);
    for (int j = 0; j < f; j++) fprintf(out, " %.4f", centre[c][j] + 0.2 * (uniform() - 0.5));
    fprintf(out, "\n");
  }
  return fclose(out) == 0 ? 0 : 1;
}
