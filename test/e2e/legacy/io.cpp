// Particle set-up and state printing (see io.h).
#include "io.h"

Particles make_particles(int n) {
  Particles p;
  for (int i = 0; i < n; ++i) {
    p.position.push_back(static_cast<float>((i * 37) % 201 - 100));
    p.velocity.push_back(static_cast<float>((i * 13) % 17 - 8));
  }
  return p;
}

void print_state(std::FILE* out, const char* label, const Particles& p) {
  double sum_x = 0.0, sum_v = 0.0;
  for (float x : p.position) sum_x += x;
  for (float v : p.velocity) sum_v += v;
  std::fprintf(out, "%s: %zu particles, sum x = %.9g, sum v = %.9g\n", label, p.position.size(),
               sum_x, sum_v);
  const std::size_t n = p.position.size();
  const std::size_t samples[] = {0, 1, n / 3, n / 2, n - 1};
  for (std::size_t i : samples) {
    if (i < n)
      std::fprintf(out, "  particle %zu: x = %.9g, v = %.9g\n", i, p.position[i], p.velocity[i]);
  }
}
