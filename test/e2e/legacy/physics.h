// A damped particle system in one dimension: positions move with their velocities, and the
// velocities lose a fixed fraction per time step.
#ifndef LEGACY_PHYSICS_H
#define LEGACY_PHYSICS_H

#include <vector>

struct Particles {
  std::vector<float> position;
  std::vector<float> velocity;
};

struct StepParams {
  float dt;
  float damping;
};

// Advances @p p by @p steps time steps of @p params.
void advance(Particles& p, const StepParams& params, int steps);

#endif
