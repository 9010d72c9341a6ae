// Time stepping of the particle system through the kernel library: x += dt * v, v *= damping.
#include "physics.h"

#include "kernels.h"

void advance(Particles& p, const StepParams& params, int steps) {
  const int n = static_cast<int>(p.position.size());
  for (int s = 0; s < steps; ++s) {
    axpy(params.dt, p.velocity.data(), p.position.data(), n);
    vector_scale(p.velocity.data(), n, params.damping);
  }
}
