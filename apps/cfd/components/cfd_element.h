// CFD's per-element arithmetic (Rodinia's euler3d), shared by the CPU and OpenMP variants, the
// CUDA kernels and the host reference; the OpenCL kernels spell out the same functions in the
// same order with fma contraction off (the CUDA ones are compiled with -fmad=false), so every
// device computes the same bits: only + - * / and sqrt, each correctly rounded.
// Layout: element i's state is variables[5 i ..], its face j's neighbour neighbours[4 i + j]
// (-1: wall, -2: far field) and that face's normal normals[3 (4 i + j) ..].
#pragma once

#include <cmath>

#ifdef __CUDACC__
#define CFD_FN __host__ __device__ inline
#else
#define CFD_FN inline
#endif

namespace cfd {

constexpr int kVars = 5;        // density, momentum x y z, energy density
constexpr int kNeighbours = 4;  // faces per element
constexpr int kDims = 3;
constexpr int kStages = 3;  // Runge-Kutta stages per iteration
constexpr float kGamma = 1.4f;
constexpr float kSmoothing = 0.2f;  // artificial viscosity

/// A state and what fluxes need of it: velocity, |v|^2, pressure, speed of sound, and its flux
/// contributions along axis k (momentum component a: fm[a][k], energy: fe[k]).
struct Flow {
  float density, m[3], energy, v[3], speed_sqd, pressure, sound, fm[3][3], fe[3];
};

CFD_FN Flow flow(const float* u) {
  Flow f;
  f.density = u[0];
  f.energy = u[4];
  for (int k = 0; k < 3; ++k) {
    f.m[k] = u[1 + k];
    f.v[k] = f.m[k] / f.density;
  }
  f.speed_sqd = f.v[0] * f.v[0] + f.v[1] * f.v[1] + f.v[2] * f.v[2];
  f.pressure = (kGamma - 1.0f) * (f.energy - 0.5f * f.density * f.speed_sqd);
  f.sound = std::sqrt(kGamma * f.pressure / f.density);
  const float energy_pressure = f.energy + f.pressure;
  for (int a = 0; a < 3; ++a) {
    for (int k = 0; k < 3; ++k) f.fm[a][k] = k < a ? f.fm[k][a] : f.m[a] * f.v[k];
    f.fm[a][a] += f.pressure;
    f.fe[a] = f.v[a] * energy_pressure;
  }
  return f;
}

/// The local time step of the element with state u.
CFD_FN float step_factor(const float* u, float area) {
  const Flow f = flow(u);
  return 0.5f / (std::sqrt(area) * (std::sqrt(f.speed_sqd) + f.sound));
}

/// Adds the average of the flux contributions of a and b through the face with normal n.
CFD_FN void add_average(float* flux, const Flow& a, const Flow& b, const float* n) {
  for (int k = 0; k < 3; ++k) {
    const float h = 0.5f * n[k];
    flux[0] += h * (b.m[k] + a.m[k]);
    for (int c = 0; c < 3; ++c) flux[1 + c] += h * (b.fm[c][k] + a.fm[c][k]);
    flux[4] += h * (b.fe[k] + a.fe[k]);
  }
}

/// Element i's flux into out[0..4]: through each face, artificial viscosity plus the average
/// flux with the neighbour, the pressure on a wall, or the average flux with the far field.
CFD_FN void flux(const int* neighbours, const float* normals, const float* variables,
                 const float* ff_variables, int i, float* out) {
  const Flow a = flow(variables + i * kVars);
  const float speed = std::sqrt(a.speed_sqd);
  float f[kVars] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  for (int j = 0; j < kNeighbours; ++j) {
    const float* n = normals + (i * kNeighbours + j) * kDims;
    const int nb = neighbours[i * kNeighbours + j];
    if (nb >= 0) {
      const Flow b = flow(variables + nb * kVars);
      const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      const float visc =
          -len * kSmoothing * 0.5f * (speed + std::sqrt(b.speed_sqd) + a.sound + b.sound);
      f[0] += visc * (a.density - b.density);
      for (int c = 0; c < 3; ++c) f[1 + c] += visc * (a.m[c] - b.m[c]);
      f[4] += visc * (a.energy - b.energy);
      add_average(f, a, b, n);
    } else if (nb == -1) {
      for (int c = 0; c < 3; ++c) f[1 + c] += n[c] * a.pressure;
    } else {
      add_average(f, a, flow(ff_variables), n);
    }
  }
  for (int v = 0; v < kVars; ++v) out[v] = f[v];
}

/// Runge-Kutta stage `stage` of one variable: old + step_factor / (kStages + 1 - stage) * flux.
CFD_FN float time_step(float old, float step_factor, float flux, int stage) {
  return old + step_factor / static_cast<float>(kStages + 1 - stage) * flux;
}

}  // namespace cfd
