// Setting up the particles and printing their state.
#ifndef LEGACY_IO_H
#define LEGACY_IO_H

#include <cstdio>

#include "physics.h"

// @p n particles on integer positions with small integer velocities (deterministic).
Particles make_particles(int n);

// A summary: sums and a few sample particles, printed exactly.
void print_state(std::FILE* out, const char* label, const Particles& p);

#endif
