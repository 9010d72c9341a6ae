// Started by test_signals.cpp: starts the runtime (workers from the environment), says
// whether libpocl is loaded, then divides an integer by a volatile zero in its own code. It
// must die by SIGFPE, as it would without the runtime; exit 0 means the division was skipped.
#include <cstdio>
#include <fstream>
#include <string>

#include "peppher/runtime.h"

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
  const int quotient = n / zero;
  std::printf("1000 / 0 = %d\n", quotient);
  return 0;
}
