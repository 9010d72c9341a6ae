// The per-element formulas of the ODE components, shared by the CPU and OpenMP variants and by
// the host reference; the OpenCL and CUDA kernels spell out the same expressions in the same
// order (no fma contraction), so every device computes the same bits.
#pragma once

#include <cstddef>

namespace ode {

/// alpha * (left - 2 mid + right): one point's diffusion from its two neighbours.
inline double diffusion3(double left, double mid, double right, double alpha) {
  return alpha * (left - 2.0 * mid + right);
}

/// alpha * (u[i-1] - 2 u[i] + u[i+1]), with the Dirichlet value @p boundary outside 0..n-1.
inline double diffusion(const double* u, std::size_t n, std::size_t i, double alpha,
                        double boundary) {
  const double left = i > 0 ? u[i - 1] : boundary;
  const double right = i + 1 < n ? u[i + 1] : boundary;
  return diffusion3(left, u[i], right, alpha);
}

/// The Brusselator's reaction terms added to du and dv: A + u^2 v - (B + 1) u and B u - u^2 v.
inline void reaction(double u, double v, double& du, double& dv, double a, double b) {
  const double uuv = u * u * v;
  du = du + (a + uuv - (b + 1.0) * u);
  dv = dv + (b * u - uuv);
}

inline double stage(double y, double k, double c) {
  return y + c * k;
}

/// y + h/6 (k1 + 2 k2 + 2 k3 + k4).
inline double update(double y, double k1, double k2, double k3, double k4, double h) {
  return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace ode
