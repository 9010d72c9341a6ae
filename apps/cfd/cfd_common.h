// CFD's input and reference, shared by the composed (main.cpp) and direct versions: a generated
// mesh standing in for Rodinia's mesh files (a rows x cols grid of elements, 4 faces each,
// tilted normals, walls along the top and bottom and on a few interior faces, far field at the
// left and right), the far-field state (Rodinia's: Mach 1.2), and a host reference that runs
// the same iterations with the same per-element functions.
#pragma once

#include <random>
#include <vector>

#include "../common/app_check.h"
#include "components/cfd_element.h"

namespace cfd {

struct Mesh {
  int elements;
  std::vector<int> neighbours;  // kNeighbours per element; -1: wall, -2: far field
  std::vector<float> normals;   // kDims per face
  std::vector<float> areas;
  std::vector<float> ff_variables;  // the far-field state, kVars floats
  std::vector<float> variables;     // the initial state: the far field everywhere
};

/// A rows x cols mesh (element r * cols + c): faces 0..3 towards -x, +x, -y, +y.
inline Mesh generate(int rows, int cols) {
  std::mt19937 gen(4242);
  std::uniform_real_distribution<float> area(0.9f, 1.1f), tilt(-0.1f, 0.1f), chance(0.0f, 1.0f);
  Mesh m;
  m.elements = rows * cols;
  m.neighbours.resize(static_cast<std::size_t>(m.elements) * kNeighbours);
  m.normals.resize(m.neighbours.size() * kDims);
  m.areas.resize(m.elements);
  for (float& a : m.areas) a = area(gen);
  auto face = [&](int i, int j, int nb, int axis, float sign) {  // a normal of length ~0.3
    float* n = &m.normals[(static_cast<std::size_t>(i) * kNeighbours + j) * kDims];
    for (int k = 0; k < kDims; ++k) n[k] = 0.3f * (k == axis ? sign : tilt(gen));
    m.neighbours[static_cast<std::size_t>(i) * kNeighbours + j] = nb;
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      if (c == 0) face(i, 0, -2, 0, -1.0f);
      if (r == 0) face(i, 2, -1, 1, -1.0f);
      for (int axis = 0; axis < 2; ++axis) {  // the +x and +y faces, shared with the neighbour
        const bool last = axis == 0 ? c + 1 == cols : r + 1 == rows;
        const int j = 1 + 2 * axis, nb = axis == 0 ? i + 1 : i + cols;
        if (last) {
          face(i, j, axis == 0 ? -2 : -1, axis, 1.0f);
          continue;
        }
        const bool wall = axis == 1 && chance(gen) < 0.01f;
        face(i, j, wall ? -1 : nb, axis, 1.0f);
        const float* n = &m.normals[(static_cast<std::size_t>(i) * kNeighbours + j) * kDims];
        float* back = &m.normals[(static_cast<std::size_t>(nb) * kNeighbours + j - 1) * kDims];
        for (int k = 0; k < kDims; ++k) back[k] = -n[k];
        m.neighbours[static_cast<std::size_t>(nb) * kNeighbours + j - 1] = wall ? -1 : i;
      }
    }
  const float density = 1.4f, pressure = 1.0f, mach = 1.2f;
  const float speed = mach * std::sqrt(kGamma * pressure / density);
  m.ff_variables = {density, density * speed, 0.0f, 0.0f,
                    density * (0.5f * speed * speed) + pressure / (kGamma - 1.0f)};
  for (int i = 0; i < m.elements; ++i)
    m.variables.insert(m.variables.end(), m.ff_variables.begin(), m.ff_variables.end());
  return m;
}

/// @p iterations iterations on the host; returns the final variables.
inline std::vector<float> reference(const Mesh& m, int iterations) {
  std::vector<float> variables = m.variables, old(variables.size()), fluxes(variables.size()),
                     factors(m.elements);
  for (int it = 0; it < iterations; ++it) {
    old = variables;
    for (int stage = 0; stage < kStages; ++stage) {
      for (int i = 0; i < m.elements; ++i)
        factors[i] = step_factor(&variables[static_cast<std::size_t>(i) * kVars], m.areas[i]);
      for (int i = 0; i < m.elements; ++i)
        flux(m.neighbours.data(), m.normals.data(), variables.data(), m.ff_variables.data(), i,
             &fluxes[static_cast<std::size_t>(i) * kVars]);
      for (std::size_t k = 0; k < variables.size(); ++k)
        variables[k] = time_step(old[k], factors[k / kVars], fluxes[k], stage);
    }
  }
  return variables;
}

/// Variables further than 1e-4 (relative) from the reference (NaN counts as wrong).
inline long count_wrong(const float* got, const std::vector<float>& want) {
  long wrong = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    wrong += !(std::fabs(got[k] - want[k]) <= 1e-4f * (1.0f + std::fabs(want[k])));
  return wrong;
}

constexpr const char* kUsage = "cfd [rows] [cols] [iterations]";

}  // namespace cfd
