/* bench/original: compares two outputs of PolyBench's print_array value by value the way
   PolyBench-ACC's compareResults does (percentDiff: equal when both are below 0.01 in
   magnitude, else 100 |a - b| / |a + 1e-8| percent at most the threshold). At most one value
   in 100,000 may be beyond the threshold: float rounding over many steps moves a few values
   that nearly cancel by more than any relative threshold (FDTD-2D's OpenCL original fails
   its own check by 1 value of 3 million here).
     pb_compare REFERENCE CANDIDATE THRESHOLD_PERCENT
   Prints "ok" (with the count beyond the threshold, if any), or how many values differ and the
   worst; exit 0 when they agree, 1 when they differ (or their counts do), 2 on bad usage or
   an unreadable file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static FILE* open_or_die(const char* path) {
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    perror(path);
    exit(2);
  }
  return f;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: pb_compare REFERENCE CANDIDATE THRESHOLD_PERCENT\n");
    return 2;
  }
  FILE* ref = open_or_die(argv[1]);
  FILE* cand = open_or_die(argv[2]);
  char* end = NULL;
  const double threshold = strtod(argv[3], &end);
  if (end == argv[3] || *end != '\0') {
    fprintf(stderr, "pb_compare: '%s' is not a number\n", argv[3]);
    return 2;
  }
  long count = 0, bad = 0, worst_at = 0;
  double worst = 0, a = 0, b = 0;
  for (;;) {
    const int got_a = fscanf(ref, "%lf", &a), got_b = fscanf(cand, "%lf", &b);
    if (got_a != 1 || got_b != 1) {
      if (got_a == 1 || got_b == 1 || !feof(ref) || !feof(cand)) {
        printf(
            "the outputs differ in length or hold something else than numbers after %ld "
            "values\n",
            count);
        return 1;
      }
      break;
    }
    ++count;
    const double d = (fabs(a) < 0.01 && fabs(b) < 0.01) ? 0 : 100 * fabs((a - b) / (a + 1e-8));
    if (!(d <= threshold)) {
      ++bad;
      if (!(d <= worst)) worst = d, worst_at = count;
    }
  }
  if (count == 0) {
    printf("no values\n");
    return 1;
  }
  if (bad > count / 100000) {
    printf("%ld of %ld values differ by more than %g%% (worst %.3g%% at value %ld)\n", bad, count,
           threshold, worst, worst_at);
    return 1;
  }
  if (bad > 0)
    printf("ok (%ld of %ld values beyond %g%%, worst %.3g%% at value %ld)\n", bad, count, threshold,
           worst, worst_at);
  else
    printf("ok\n");
  return 0;
}
