// Started by test_signals.cpp: starts the runtime (workers from the environment), says
// whether libpocl is loaded, then divides an integer by a volatile zero in its own code. It
// must die by SIGFPE, as it would without the runtime; exit 0 means the division was skipped.
#include <cstdio>
#include <fstream>
#include <string>

#include "peppher/runtime.h"

// The division the test wants to fault: UBSan (tools/test --asan) would report it and exit
// before the processor raises SIGFPE.
__attribute__((no_sanitize("integer-divide-by-zero"))) int divide(int n, int d) {
  return n / d;
}

int main() {
  peppher::Runtime runtime;
  std::ifstream maps("/proc/self/maps");
  bool pocl = false;
  for (std::string line; std::getline(maps, line);)
    pocl = pocl || line.find("libpocl") != std::string::npos;
  std::printf("pocl loaded: %s\n", pocl ? "yes" : "no");
  std::fflush(stdout);
  volatile int zero = 0;
  volatile int n = 1000;
  const int quotient = divide(n, zero);
  std::printf("1000 / 0 = %d\n", quotient);
  return 0;
}
