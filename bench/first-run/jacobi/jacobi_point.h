// bench/first-run: one point of the Jacobi step, shared by the sequential and OpenMP
// variants and the program's host reference (same expression, same bits).
#pragma once

inline float jacobi_point(const float* in, int n, int i, int j) {
  if (i == 0 || j == 0 || i == n - 1 || j == n - 1) return in[i * n + j];
  return 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1] + in[(i + 1) * n + j] +
                 in[(i - 1) * n + j]);
}
