// A call that no worker can run (only a CUDA variant, no CUDA worker) must fail loudly,
// naming the interface, and leave the container usable.
#include <cstdio>
#include <cstring>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  peppher::Vector<float> v(100, 1.0f);
  int status = 1;
  try {
    cuda_only(v);
    std::printf("no_worker: the call was silently accepted\n");
  } catch (const peppher::Error& e) {
    std::printf("no_worker: caught: %s\n", e.what());
    status = std::strstr(e.what(), "cuda_only") != nullptr ? 0 : 1;
  }
  status |= v[0] != 1.0f;  // untouched, still usable
  PEPPHER_SHUTDOWN();
  return status;
}
