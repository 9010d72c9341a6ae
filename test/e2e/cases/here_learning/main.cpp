// Calls step() `calls` times on one vector (asynchronous: a container), or step_raw() on a
// plain array when the second argument is "raw" (each call waits), and checks that every
// element went up by one per call; the execution report says which variant ran where.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 20;
  const bool raw = argc > 2 && std::strcmp(argv[2], "raw") == 0;
  PEPPHER_INITIALIZE();
  peppher::Vector<float> v(4096, 0.0f);
  std::vector<float> a(4096, 0.0f);
  for (int c = 0; c < calls; ++c) {
    if (raw)
      step_raw(a.data(), static_cast<int>(a.size()));
    else
      step(v);
  }
  int wrong = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    wrong += (raw ? a[i] : v[i]) != static_cast<float>(calls);
  PEPPHER_SHUTDOWN();
  std::printf("here_learning: %s\n", wrong == 0 ? "ok" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
