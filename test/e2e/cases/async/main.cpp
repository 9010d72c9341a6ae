// Many independent asynchronous container calls: 8 vectors, 20 calls each (factors 2 and
// 0.5 alternate, so every element ends where it started). Checks the numbers; run with a
// CPU worker and the OpenCL device, both worker kinds pick up tasks.
#include <cstdio>
#include <vector>

#include "peppher.h"

void scale_all(std::vector<peppher::Vector<float>>& vs, float factor);  // rounds.cpp

int main() {
  PEPPHER_INITIALIZE();
  std::vector<peppher::Vector<float>> vs;
  for (int k = 0; k < 8; ++k) vs.emplace_back(400000, static_cast<float>(k + 1));
  for (int round = 0; round < 20; ++round) {
    if (round % 2 == 0) {
      for (auto& v : vs) scale_vec(v, 2.0f);
    } else {
      scale_all(vs, 0.5f);
    }
  }
  int wrong = 0;
  for (int k = 0; k < 8; ++k) {
    for (size_t i = 0; i < vs[k].size(); ++i) wrong += vs[k][i] != static_cast<float>(k + 1);
  }
  PEPPHER_SHUTDOWN();
  std::printf("async: %s\n", wrong == 0 ? "all results correct" : "WRONG RESULTS");
  return wrong == 0 ? 0 : 1;
}
