// The ODE solver's problem, shared by the composed (main.cpp) and direct versions: the 1-D
// Brusselator (Hairer & Wanner's BRUSS) on n interior points, its initial state, and a host
// reference that runs the same RK4 steps with the same per-point formulas.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "../common/app_check.h"
#include "components/ode_point.h"

namespace ode {

/// A = 1, B = 3, diffusion 0.02 on [0, 1] (alpha = 0.02 (n + 1)^2), boundaries u = 1, v = 3,
/// and a step h well inside RK4's stability region for that diffusion.
struct Problem {
  int n;
  double a = 1.0, b = 3.0, alpha, h, u_boundary = 1.0, v_boundary = 3.0;
  std::vector<double> u0, v0;
};

inline Problem generate(int n) {
  Problem p;
  p.n = n;
  p.alpha = 0.02 * (n + 1.0) * (n + 1.0);
  p.h = 0.4 / p.alpha;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < n; ++i) {
    p.u0.push_back(1.0 + std::sin(2.0 * pi * (i + 1.0) / (n + 1.0)));
    p.v0.push_back(3.0);
  }
  return p;
}

/// The final state: u, v and the largest change of any point over any step.
struct State {
  std::vector<double> u, v;
  double change = 0.0;
};

/// @p steps RK4 steps on the host, in the order and with the formulas of the components.
inline State reference(const Problem& p, int steps) {
  const std::size_t n = p.u0.size();
  State s{p.u0, p.v0, 0.0};
  std::vector<double> ku[4], kv[4], su(s.u), sv(s.v);
  for (auto* k : {ku, kv})
    for (int j = 0; j < 4; ++j) k[j].resize(n);
  const double c[4] = {0.0, p.h / 2, p.h / 2, p.h};
  for (int step = 0; step < steps; ++step) {
    for (int j = 0; j < 4; ++j) {
      const std::vector<double>& yu = j == 0 ? s.u : su;
      const std::vector<double>& yv = j == 0 ? s.v : sv;
      if (j > 0)
        for (std::size_t i = 0; i < n; ++i) {
          su[i] = stage(s.u[i], ku[j - 1][i], c[j]);
          sv[i] = stage(s.v[i], kv[j - 1][i], c[j]);
        }
      for (std::size_t i = 0; i < n; ++i) {
        ku[j][i] = diffusion(yu.data(), n, i, p.alpha, p.u_boundary);
        kv[j][i] = diffusion(yv.data(), n, i, p.alpha, p.v_boundary);
      }
      for (std::size_t i = 0; i < n; ++i) reaction(yu[i], yv[i], ku[j][i], kv[j][i], p.a, p.b);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double un = update(s.u[i], ku[0][i], ku[1][i], ku[2][i], ku[3][i], p.h);
      const double vn = update(s.v[i], kv[0][i], kv[1][i], kv[2][i], kv[3][i], p.h);
      s.change = std::fmax(s.change, std::fmax(std::fabs(un - s.u[i]), std::fabs(vn - s.v[i])));
      s.u[i] = un;
      s.v[i] = vn;
    }
  }
  return s;
}

/// Points of (u, v) further than 1e-12 (relative) from the reference, plus 1 if the change differs.
inline long count_wrong(const double* u, const double* v, double change, const State& want) {
  long wrong = 0;
  auto off = [](double got, double ref) {
    return !(std::fabs(got - ref) <= 1e-12 * (1 + std::fabs(ref)));
  };
  for (std::size_t i = 0; i < want.u.size(); ++i)
    wrong += off(u[i], want.u[i]) + off(v[i], want.v[i]);
  return wrong + off(change, want.change);
}

/// The checksum both versions print: u, then v, then the change, bit for bit.
inline std::uint64_t checksum(const double* u, const double* v, double change, std::size_t n) {
  return app::checksum(&change, 1, app::checksum(v, n, app::checksum(u, n)));
}

constexpr const char* kUsage = "ode [points] [steps]";

}  // namespace ode
