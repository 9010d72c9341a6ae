// step, sequential CPU variant: adds 1 to every element, then 30 ms of "work" (a sleep: the
// same time under any load), so that the model ranks it after the OpenMP variant.
#include <peppher/runtime.h>

#include <chrono>
#include <thread>

void step_cpu(peppher::Vector<float>& v) {
  float* p = v.data();
  for (std::size_t i = 0; i < v.size(); ++i) p[i] += 1.0f;
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
}
