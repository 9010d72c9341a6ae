// bench/startup: what the runtime's start and stop add to a whole run. The same binary runs
// with the runtime (PEPPHER_INITIALIZE, no call, PEPPHER_SHUTDOWN: a composed program's
// fixed cost) or without it (`bare`: what the program costs to load and exit).
//   bench_startup runtime|bare
#include <cstdio>
#include <cstring>

#include "peppher.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "bare") == 0) return 0;
  if (argc == 2 && std::strcmp(argv[1], "runtime") == 0) {
    PEPPHER_INITIALIZE();
    PEPPHER_SHUTDOWN();
    return 0;
  }
  std::fprintf(stderr, "usage: bench_startup runtime|bare\n");
  return 2;
}
