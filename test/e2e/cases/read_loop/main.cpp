// An asynchronous loop on one small vector (issue 41, item 5): 8,000 calls of a component
// with CPU and OpenCL variants and a history model, the host reading the vector every 10
// calls. Factors 2 and 0.5 alternate, so every element ends where it started. Each call's
// choice asks where the vector is while the previous call may still be writing it.
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 8000;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> v(1000, 3.0f);
  int wrong = 0;
  for (int c = 0; c < calls; ++c) {
    loop_scale(v, c % 2 == 0 ? 2.0f : 0.5f);
    if (c % 10 == 9) wrong += v[c % 1000] != 3.0f;  // after an even number of calls
  }
  for (std::size_t i = 0; i < v.size(); ++i) wrong += v[i] != 3.0f;
  PEPPHER_SHUTDOWN();
  std::printf("read_loop: %s\n", wrong == 0 ? "all results correct" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
