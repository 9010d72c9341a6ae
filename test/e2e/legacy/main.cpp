// A small legacy simulation: damped particles advanced in time, state printed before and
// after. It knows nothing about PEPPHER; legacy_test.cpp composes it with three added lines.
//   ./particles [n] [steps]
#include <cstdio>
#include <cstdlib>

#include "io.h"
#include "kernels.h"
#include "physics.h"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 6;
  Particles p = make_particles(n);
  print_state(stdout, "initial", p);
  // make_particles() gives velocities in units of two positions per step.
  vector_scale(p.velocity.data(), n, 0.5f);
  // dt and damping are powers-of-two fractions: with integer starting values and a few
  // steps, every operation is exact in float.
  const StepParams params{0.5f, 0.75f};
  advance(p, params, steps);
  print_state(stdout, "final", p);
  return 0;
}
