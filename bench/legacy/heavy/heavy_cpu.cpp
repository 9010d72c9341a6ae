// heavy_scale on the CPU: arr[i] *= factor, made deterministically expensive (0.1 us per
// element, as a compute-heavy kernel would be), so that large calls belong on the device.
#include <chrono>
#include <thread>

void heavy_cpu(float* arr, int size, float factor) {
  std::this_thread::sleep_for(std::chrono::microseconds(size / 10));
  for (int i = 0; i < size; ++i) arr[i] *= factor;
}
