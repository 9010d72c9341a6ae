// A C++ library's C-callable entry point.
extern "C" void tp_axpy_extc(int n, float a, const float* __restrict__ x, float* __restrict__ y);

extern "C" void tp_axpy_extc(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}
