// Calls step() `calls` times on one vector (asynchronous: a container) and checks that every
// element went up by one per call; the execution report says which variant ran where.
#include <cstdio>
#include <cstdlib>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 20;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> v(4096, 0.0f);
  for (int c = 0; c < calls; ++c) step(v);
  int wrong = 0;
  for (std::size_t i = 0; i < v.size(); ++i) wrong += v[i] != static_cast<float>(calls);
  PEPPHER_SHUTDOWN();
  std::printf("here_learning: %s\n", wrong == 0 ? "ok" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
