// Calls with more buffers than STARPU_NMAXBUFS end to end: each check prints one line
// "<name>: ok|WRONG", then "many_buffers: N wrong"; the program exits non-zero when any is
// wrong. Arguments: rounds of each call (default 2), and "nohalo" to leave out many_halo
// (it has CPU and OpenMP variants only: a run with OpenCL workers alone cannot run it).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"

namespace {

int wrong_checks = 0;

void report(const char* name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
  wrong_checks += ok ? 0 : 1;
}

// Small integers, so that every result is exact in float.
float value(int i, int salt) {
  return static_cast<float>((i * 7 + salt * 3) % 23 - 11);
}

// One task of twelve buffers, `rounds` times: read-write operands accumulate.
void twelve_buffers(int rounds) {
  const int n = 1000;
  peppher::Vector<float> a(n), b(n), e(n), f(n);
  peppher::Matrix<float> m(n, 2), o(n, 2);
  peppher::Vector<int> r(n);
  std::vector<float> c(n), g(n, -1.0f), h(n);
  std::vector<int> d(n);
  const float k[2] = {2.0f, -3.0f};
  for (int i = 0; i < n; ++i) {
    a[i] = value(i, 1);
    b[i] = value(i, 2);
    m(i, 0) = value(i, 3);
    m(i, 1) = value(i, 4);
    c[i] = value(i, 5);
    d[i] = i % 5 - 2;
    f[i] = value(i, 6);
    h[i] = value(i, 7);
    r[i] = i;
  }
  for (int round = 0; round < rounds; ++round)
    many_bufs(a, b, m, c.data(), d.data(), e, f, g.data(), h.data(), o, k, r, n);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const auto times = static_cast<float>(rounds);
    ok = ok && e[i] == value(i, 1) + value(i, 2);
    ok = ok && f[i] == value(i, 6) + times * value(i, 3) * k[0];
    ok = ok && g[i] == value(i, 5) * static_cast<float>(i % 5 - 2);
    ok = ok && h[i] == value(i, 7) + times * (value(i, 4) + k[1]);
    ok = ok && o(i, 0) == value(i, 1) - value(i, 5) && o(i, 1) == 2.0f * value(i, 2);
    ok = ok && r[i] == i + rounds * (i % 5 - 2);
  }
  report("twelve buffers", ok);
}

// Twelve buffers split into blocks of at most 300 elements (rows): 4 tasks per call.
void twelve_split(int rounds) {
  const int n = 1001;
  std::vector<peppher::Vector<float>> x;
  for (int j = 0; j < 6; ++j) x.emplace_back(n);
  peppher::Vector<float> y0(n), y1(n), z(n);
  peppher::Matrix<float> q(n, 2);
  std::vector<float> u(n), w(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 6; ++j) x[j][i] = value(i, 10 + j);
    u[i] = value(i, 20);
    z[i] = value(i, 21);
    q(i, 0) = value(i, 22);
    q(i, 1) = value(i, 23);
  }
  for (int round = 0; round < rounds; ++round)
    many_split(x[0], x[1], x[2], x[3], x[4], x[5], u.data(), y0, y1, z, w.data(), q, n, 300);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const auto times = static_cast<float>(rounds);
    ok = ok && y0[i] == value(i, 10) + value(i, 11) + value(i, 12);
    ok = ok && y1[i] == value(i, 13) * value(i, 14) - value(i, 15);
    ok = ok && z[i] == value(i, 21) + times * value(i, 20);
    ok = ok && w[i] == value(i, 10) - value(i, 20);
    ok = ok && q(i, 0) == value(i, 22) + times * value(i, 11);
    ok = ok && q(i, 1) == value(i, 23) + times * value(i, 11);
  }
  report("twelve buffers in blocks", ok);
}

// Nine Vectors and x's halo (eleven buffers) in blocks of at most 250 elements.
void halo_split(int rounds) {
  const int n = 1000;
  peppher::Vector<float> x(n), y(n);
  std::vector<peppher::Vector<float>> p;
  for (int j = 0; j < 7; ++j) p.emplace_back(n);
  for (int i = 0; i < n; ++i) {
    x[i] = value(i, 30);
    for (int j = 0; j < 7; ++j) p[j][i] = value(i, 31 + j);
  }
  bool ok = true;
  for (int round = 0; round < rounds; ++round) {
    many_halo(x, p[0], p[1], p[2], p[3], p[4], p[5], p[6], y, 250);
    for (int i = 0; i < n; ++i) {
      const int lo = i > 0 ? i - 1 : 0, hi = i + 1 < n ? i + 1 : n - 1;
      float want = value(lo, 30) + value(i, 30) + value(hi, 30);
      for (int j = 0; j < 7; ++j) want += value(i, 31 + j);
      ok = ok && y[i] == want;
    }
  }
  report("nine buffers and a halo in blocks", ok);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  const bool halo = !(argc > 2 && std::strcmp(argv[2], "nohalo") == 0);
  PEPPHER_INITIALIZE();
  twelve_buffers(rounds);
  twelve_split(rounds);
  if (halo) halo_split(rounds);
  PEPPHER_SHUTDOWN();
  std::printf("many_buffers: %d wrong\n", wrong_checks);
  return wrong_checks == 0 ? 0 : 1;
}
