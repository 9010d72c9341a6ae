/* bench/original/rodinia: the time-stamp counter's rate (cycles per second), measured against
   CLOCK_MONOTONIC over 0.2 s, to read the seconds of originals that time with rdtsc. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t cycles(void) {
  uint32_t lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (uint64_t)hi << 32 | lo;
}

int main(void) {
  const double t0 = now();
  const uint64_t c0 = cycles();
  while (now() - t0 < 0.2) {
  }
  const uint64_t c1 = cycles();
  printf("%.0f\n", (double)(c1 - c0) / (now() - t0));
  return 0;
}
