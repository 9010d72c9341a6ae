// boom_raw: doubles a, or throws when asked (the caller sees it at the call).
#include <stdexcept>

void boom_raw_cpu(float* a, int n, int fail) {
  if (fail != 0) throw std::runtime_error("boom_raw_cpu failed on purpose");
  for (int i = 0; i < n; ++i) a[i] *= 2.0f;
}
