/* bench/original/rodinia: writes a deterministic input grid for the programs whose originals
   read one (the suite's data sets are not here), one value a line as their readinput reads:
     rd_gen_grid temp|power COUNT FILE
   temp: 320-340 (kelvin, around the suite's files' values), power: 0-0.0005. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  if (argc != 4 || (strcmp(argv[1], "temp") != 0 && strcmp(argv[1], "power") != 0)) {
    fprintf(stderr, "usage: rd_gen_grid temp|power COUNT FILE\n");
    return 2;
  }
  const long n = atol(argv[2]);
  FILE* f = fopen(argv[3], "w");
  if (!f || n <= 0) {
    fprintf(stderr, "rd_gen_grid: cannot write %ld values to %s\n", n, argv[3]);
    return 1;
  }
  const int temp = strcmp(argv[1], "temp") == 0;
  unsigned long x = temp ? 12345u : 67890u;
  for (long i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u; /* a fixed LCG: the same file on every machine */
    const double u = (double)((x >> 16) & 0x7fff) / 32768.0;
    fprintf(f, "%.6f\n", temp ? 320.0 + 20.0 * u : 0.0005 * u);
  }
  return fclose(f) == 0 ? 0 : 1;
}
