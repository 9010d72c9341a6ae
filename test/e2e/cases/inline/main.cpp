// Inline raw-pointer calls (issue 17), each mode printing "inline: N wrong":
//   inline sizes N...   offload(x, n) for each n: small n run inline, large n on the device
//   inline alias        a raw call on a container's memory while a task still writes it
//   inline reuse        a freed pointer's address reused with other sizes
//   inline threads      two threads, 2000 small raw calls each, sharing a read-only input
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "peppher.h"

namespace {

int check_offload(int n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i);
  offload(x.data(), n);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += x[static_cast<std::size_t>(i)] != static_cast<float>(i + 1);
  return wrong;
}

int alias() {
  peppher::Vector<float> v(1000, 1.0f);
  float* p = v.data();   // host phase: the pointer is the container's memory
  bump(v);               // a task now writes v (it sleeps 50 ms first)
  std::vector<float> out(1000, 0.0f);
  twice(p, out.data(), 1000);  // must see the bumped values: 2 * 2
  int wrong = 0;
  for (float y : out) wrong += y != 4.0f;
  return wrong;
}

int reuse() {
  int wrong = 0;
  const int sizes[] = {3000, 40, 1500, 3000, 20, 4000};
  for (int n : sizes) {
    float* x = static_cast<float*>(std::malloc(sizeof(float) * static_cast<std::size_t>(n)));
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    offload(x, n);  // small n inline, large n on the device
    offload(x, n);
    for (int i = 0; i < n; ++i) wrong += x[i] != static_cast<float>(i + 2);
    std::free(x);
  }
  return wrong;
}

int threads() {
  std::vector<float> in(256);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  int wrong[2] = {0, 0};
  auto work = [&](int t) {
    std::vector<float> out(in.size());
    for (int k = 0; k < 2000; ++k) {
      const int n = 1 + (k * 7 + t) % 256;
      twice(in.data(), out.data(), n);
      for (int i = 0; i < n; ++i) wrong[t] += out[static_cast<std::size_t>(i)] != 2.0f * in[static_cast<std::size_t>(i)];
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return wrong[0] + wrong[1];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  PEPPHER_INITIALIZE();
  int wrong = 0;
  if (std::strcmp(argv[1], "sizes") == 0) {
    for (int k = 2; k < argc; ++k) wrong += check_offload(std::atoi(argv[k]));
  } else if (std::strcmp(argv[1], "alias") == 0) {
    wrong = alias();
  } else if (std::strcmp(argv[1], "reuse") == 0) {
    wrong = reuse();
  } else if (std::strcmp(argv[1], "threads") == 0) {
    wrong = threads();
  }
  std::printf("inline: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
