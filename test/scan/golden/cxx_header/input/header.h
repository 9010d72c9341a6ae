// A C++ library header: namespaces, standard containers, default arguments, references,
// class members, inline, constexpr and templates defined in the header.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mylib {

void blur(const std::vector<float> &in, std::vector<float> &out, int radius = 1);
void label(const std::string &name, int *ids, int nids);
void scale(float *x, std::size_t n, float a = 1.0f);

inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
constexpr int square(int x) { return x * x; }

template <typename T>
void fill(T *data, int n, T value) {
  for (int i = 0; i < n; ++i) data[i] = value;
}

class Solver {
 public:
  void step(float *u, int n);
  static void reset(float *u, int n);
};

}  // namespace mylib
