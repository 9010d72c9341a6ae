// Two host threads call the same component at once with different by-value arguments,
// 20,000 calls each; every result is checked (by-value arguments are packed per task).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "peppher.h"

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 20000;
  PEPPHER_INITIALIZE();
  std::atomic<int> wrong{0};
  auto worker = [&](float factor) {
    float data[4];
    for (int k = 0; k < calls; ++k) {
      for (float& d : data) d = static_cast<float>(k % 1000);
      vector_scale(data, 4, factor);
      for (float d : data) wrong += d != static_cast<float>(k % 1000) * factor;
    }
  };
  std::thread a(worker, 2.0f), b(worker, 3.0f);
  a.join();
  b.join();
  PEPPHER_SHUTDOWN();
  std::printf("threads: %d calls x 2 threads, %d wrong results\n", calls, wrong.load());
  return wrong == 0 ? 0 : 1;
}
