/* bench/original/rodinia: the composed programs' clock (monotonic seconds), the one the run
   script's kernel-region lines are read from. */
#ifndef RD_TIMER_H
#define RD_TIMER_H
#include <time.h>

static inline double rd_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
