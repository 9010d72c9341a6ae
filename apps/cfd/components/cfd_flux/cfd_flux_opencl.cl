// cfd_flux, OpenCL variant: one work-item per element (grid stride; launched over every float of
// fluxes, so 4 in 5 work-items have nothing to do). The functions of cfd_element.h spelled out
// in OpenCL C, same operations in the same order, with contraction into fma off.
#pragma OPENCL FP_CONTRACT OFF
#define GAMMA 1.4f
#define SMOOTHING 0.2f

typedef struct {
  float density, m[3], energy, v[3], speed_sqd, pressure, sound, fm[3][3], fe[3];
} Flow;

Flow flow(__global const float* u) {
  Flow f;
  f.density = u[0];
  f.energy = u[4];
  for (int k = 0; k < 3; ++k) {
    f.m[k] = u[1 + k];
    f.v[k] = f.m[k] / f.density;
  }
  f.speed_sqd = f.v[0] * f.v[0] + f.v[1] * f.v[1] + f.v[2] * f.v[2];
  f.pressure = (GAMMA - 1.0f) * (f.energy - 0.5f * f.density * f.speed_sqd);
  f.sound = sqrt(GAMMA * f.pressure / f.density);
  const float energy_pressure = f.energy + f.pressure;
  for (int a = 0; a < 3; ++a) {
    for (int k = 0; k < 3; ++k) f.fm[a][k] = k < a ? f.fm[k][a] : f.m[a] * f.v[k];
    f.fm[a][a] += f.pressure;
    f.fe[a] = f.v[a] * energy_pressure;
  }
  return f;
}

void add_average(float* flux, const Flow* a, const Flow* b, __global const float* n) {
  for (int k = 0; k < 3; ++k) {
    const float h = 0.5f * n[k];
    flux[0] += h * (b->m[k] + a->m[k]);
    for (int c = 0; c < 3; ++c) flux[1 + c] += h * (b->fm[c][k] + a->fm[c][k]);
    flux[4] += h * (b->fe[k] + a->fe[k]);
  }
}

__kernel void cfd_flux_opencl(__global const int* neighbours, int neighbours_size,
                              __global const float* normals, int normals_size,
                              __global const float* variables, int variables_size,
                              __global const float* ff_variables, int ff_variables_size,
                              __global float* fluxes, int fluxes_size) {
  (void)neighbours_size;
  (void)normals_size;
  (void)variables_size;
  (void)ff_variables_size;
  const int elements = fluxes_size / 5;
  for (int i = (int)get_global_id(0); i < elements; i += (int)get_global_size(0)) {
    const Flow a = flow(variables + i * 5);
    const float speed = sqrt(a.speed_sqd);
    float f[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < 4; ++j) {
      __global const float* n = normals + (i * 4 + j) * 3;
      const int nb = neighbours[i * 4 + j];
      if (nb >= 0) {
        const Flow b = flow(variables + nb * 5);
        const float len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        const float visc =
            -len * SMOOTHING * 0.5f * (speed + sqrt(b.speed_sqd) + a.sound + b.sound);
        f[0] += visc * (a.density - b.density);
        for (int c = 0; c < 3; ++c) f[1 + c] += visc * (a.m[c] - b.m[c]);
        f[4] += visc * (a.energy - b.energy);
        add_average(f, &a, &b, n);
      } else if (nb == -1) {
        for (int c = 0; c < 3; ++c) f[1 + c] += n[c] * a.pressure;
      } else {
        const Flow ff = flow(ff_variables);
        add_average(f, &a, &ff, n);
      }
    }
    for (int v = 0; v < 5; ++v) fluxes[i * 5 + v] = f[v];
  }
}
