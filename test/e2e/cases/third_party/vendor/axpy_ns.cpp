// A C++ library keeps its functions in its namespace.
namespace vendor {

void tp_axpy_ns(int count, float alpha, const float* xs, float* ys) {
  for (int i = 0; i < count; ++i) ys[i] = alpha * xs[i] + ys[i];
}

}  // namespace vendor
