// Calls of different work under one data footprint (nap() sleeps for its int argument, the
// Vector is the same), the argument declared a context parameter (`range`): each value keeps
// a history of its own, which StarPU never flushes.
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 12;
  PEPPHER_INITIALIZE();
  peppher::Vector<double> count(16, 0.0);
  for (int c = 0; c < calls; ++c) nap(count, c % 2 == 0 ? 1 : 20);
  const double entries = count[0];
  PEPPHER_SHUTDOWN();
  std::printf("%g calls ran\n", entries);
  return entries == calls ? 0 : 1;
}
