// Calls each interface once and checks the results (the test's point is training).
#include <cstdio>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  int wrong = 0;
  peppher::Vector<float> v(8, 1.0f);
  unsized(v, 8);
  wrong += v[0] != 2.0f;
#ifndef ONLY_UNSIZED
  const int n = 64;
  peppher::Matrix<float> J(n, n, 1.0f);
  peppher::Scalar<float> q(0.0f);
  diffuse(J, q, n);
  wrong += J(0, 0) != 1.0f || q.get() != static_cast<float>(n * n);
  peppher::Scalar<float> s(0.0f);
  total(s, 10);
  wrong += s.get() != 10.0f;
#endif
  std::printf("kinds: %d wrong\n", wrong);
  PEPPHER_SHUTDOWN();
  return wrong == 0 ? 0 : 1;
}
