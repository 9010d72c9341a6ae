// nap, CPU variant: counts the call in v[0], then sleeps `millis`.
#include <peppher/runtime.h>

#include <chrono>
#include <thread>

void nap_cpu(peppher::Vector<double>& v, int millis) {
  v.data()[0] += 1.0;
  std::this_thread::sleep_for(std::chrono::milliseconds(millis));
}
