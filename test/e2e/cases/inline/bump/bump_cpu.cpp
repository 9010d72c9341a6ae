// bump on the CPU: v[i] += 1, after 50 ms (so a caller that does not wait for it would
// read the old values).
#include <peppher/runtime.h>

#include <chrono>
#include <thread>

void bump_cpu(peppher::Vector<float>& v) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] += 1.0f;
}
