/* bench/original/rodinia: compares two lists of numbers (whitespace-separated, the rest of a
   line after a non-number ignored) within a relative tolerance:
     rd_compare EXPECTED GOT TOLERANCE
   prints "ok" or the first difference and how many differ; exit 1 when they differ or the
   counts differ. |a - b| <= tol * max(|a|, |b|, 1e-6) passes (0: exact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double* read_numbers(const char* path, long* n) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "rd_compare: cannot read %s\n", path);
    exit(2);
  }
  long cap = 1024;
  double* v = malloc(sizeof *v * (size_t)cap);
  *n = 0;
  int c;
  while ((c = fgetc(f)) != EOF) {
    ungetc(c, f);
    double x;
    if (fscanf(f, "%lf", &x) == 1) {
      if (*n == cap) v = realloc(v, sizeof *v * (size_t)(cap *= 2));
      v[(*n)++] = x;
    } else {
      fgetc(f); /* skip one character that starts no number */
    }
  }
  fclose(f);
  return v;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: rd_compare EXPECTED GOT TOLERANCE\n");
    return 2;
  }
  long n, m, bad = 0, first = -1;
  double* a = read_numbers(argv[1], &n);
  double* b = read_numbers(argv[2], &m);
  const double tol = atof(argv[3]);
  if (n != m || n == 0) {
    printf("%ld numbers expected, %ld got\n", n, m);
    return 1;
  }
  for (long i = 0; i < n; i++) {
    double scale = fmax(fmax(fabs(a[i]), fabs(b[i])), 1e-6);
    if (fabs(a[i] - b[i]) > tol * scale || isnan(b[i])) {
      if (first < 0) first = i;
      bad++;
    }
  }
  if (bad == 0) {
    printf("ok\n");
    return 0;
  }
  printf("%ld of %ld values differ (first: #%ld, %.9g expected, %.9g got)\n", bad, n, first,
         a[first], b[first]);
  return 1;
}
