// busy, CPU variant: appends (start, end) times in ms to log; log[0] counts entries.
#include <peppher/runtime.h>

#include <chrono>
#include <thread>

static double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

void busy_cpu(peppher::Vector<double>& log, int millis) {
  double* p = log.data();
  const size_t k = static_cast<size_t>(p[0]);
  p[1 + 2 * k] = now_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(millis));
  p[2 + 2 * k] = now_ms();
  p[0] = static_cast<double>(k + 1);
}
