// Inline raw-pointer calls (issue 17), each mode printing "inline: N wrong":
//   inline sizes N...   offload(x, n) for each n: small n run inline, large n on the device
//   inline alias        a raw call on a container's memory while a task still writes it
//   inline alias_device the same with a raw call that goes to the device (a task on the
//                       cached registration of the container's memory), and back
//   inline reuse        a freed pointer's address reused by malloc with other sizes (prints
//                       "reuse: K of M addresses reused")
//   inline threads      two threads, 2000 small raw calls each, sharing a read-only input
//   inline threads_mixed two threads, each alternating device and inline calls on its own
//                       array (the cached registration and another size at one address)
#include <cstdint>
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
  float* p = v.data();  // host phase: the pointer is the container's memory
  bump(v);              // a task now writes v (it sleeps 50 ms first)
  std::vector<float> out(1000, 0.0f);
  twice(p, out.data(), 1000);  // must see the bumped values: 2 * 2
  int wrong = 0;
  for (float y : out) wrong += y != 4.0f;
  return wrong;
}

int alias_device() {
  peppher::Vector<float> v(3000, 1.0f);
  float* p = v.data();  // host phase: the pointer is the container's memory
  bump(v);              // a task now writes v (it sleeps 50 ms first): 2
  offload(p, 3000);     // large: a task on the device, through another handle: 3
  int wrong = 0;
  for (std::size_t i = 0; i < v.size(); ++i) wrong += v[i] != 3.0f;
  bump(v);           // the container's task sees what the raw call wrote: 4
  offload(p, 3000);  // and the raw call what the container's task wrote: 5
  for (std::size_t i = 0; i < v.size(); ++i) wrong += v[i] != 5.0f;
  return wrong;
}

int reuse() {
  int wrong = 0, reused = 0, pairs = 0;
  const int sizes[] = {3000, 1500, 40, 39, 12, 4000, 2000, 20, 3000};
  float* x = nullptr;
  std::uintptr_t last = 0;  // the previous array's address
  for (int n : sizes) {
    // Freed, then at once another size: malloc may hand the same address back (reported);
    // 40 and 39 floats share a size class of glibc's per-thread cache, so 39 gets the
    // address of 40, both calls on the device.
    std::free(x);
    x = static_cast<float*>(std::malloc(sizeof(float) * static_cast<std::size_t>(n)));
    const auto at = reinterpret_cast<std::uintptr_t>(x);
    if (last != 0) {
      ++pairs;
      reused += at == last;
    }
    last = at;
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    offload(x, n);  // small n inline, large n on the device
    offload(x, n);
    for (int i = 0; i < n; ++i) wrong += x[i] != static_cast<float>(i + 2);
  }
  std::free(x);
  std::printf("reuse: %d of %d addresses reused\n", reused, pairs);
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
      for (int i = 0; i < n; ++i)
        wrong[t] += out[static_cast<std::size_t>(i)] != 2.0f * in[static_cast<std::size_t>(i)];
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return wrong[0] + wrong[1];
}

int threads_mixed() {
  int wrong[2] = {0, 0};
  auto work = [&](int t) {
    std::vector<float> x(3000, static_cast<float>(t));
    for (int k = 0; k < 10; ++k) {
      offload(x.data(), 3000);  // the device, on the cached registration
      offload(x.data(), 20);    // inline, on its first 20 elements
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      wrong[t] += x[i] != static_cast<float>(t + (i < 20 ? 20 : 10));
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
  } else if (std::strcmp(argv[1], "alias_device") == 0) {
    wrong = alias_device();
  } else if (std::strcmp(argv[1], "threads_mixed") == 0) {
    wrong = threads_mixed();
  } else if (std::strcmp(argv[1], "reuse") == 0) {
    wrong = reuse();
  } else if (std::strcmp(argv[1], "threads") == 0) {
    wrong = threads();
  }
  std::printf("inline: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
