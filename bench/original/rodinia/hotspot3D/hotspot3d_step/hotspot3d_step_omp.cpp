// HotSpot3D's OpenMP variant: one step of the loop nest of Rodinia's computeTempOMP
// (openmp/hotspot3D/3D.c: inline in its parallel region there, so copied here as written,
// its `#pragma omp for` over z made a `parallel for` for one step); compiled without -fopenmp
// it is the sequential variant (hotspot3d_step_seq.cpp includes this file).
#include <peppher/runtime.h>

#ifndef HOTSPOT3D_VARIANT
#define HOTSPOT3D_VARIANT hotspot3d_step_omp
#endif

void HOTSPOT3D_VARIANT(const peppher::Vector<float>& p, const peppher::Vector<float>& t_in,
                       peppher::Vector<float>& t_out, float sdc, int nx, int ny, int nz, float ce,
                       float cw, float cn, float cs, float ct, float cb, float cc) {
  const float* pIn = p.data();
  const float* tIn_t = t_in.data();
  float* tOut_t = t_out.data();
  const float dt_over_cap = sdc, amb_temp = 80.0f;  // (dt/Cap) and the suite's amb_temp
  int z;
#pragma omp parallel for
  for (z = 0; z < nz; z++) {
    int y;
    for (y = 0; y < ny; y++) {
      int x;
      for (x = 0; x < nx; x++) {
        int c, w, e, n, s, b, t;
        c = x + y * nx + z * nx * ny;
        w = (x == 0) ? c : c - 1;
        e = (x == nx - 1) ? c : c + 1;
        n = (y == 0) ? c : c - nx;
        s = (y == ny - 1) ? c : c + nx;
        b = (z == 0) ? c : c - nx * ny;
        t = (z == nz - 1) ? c : c + nx * ny;
        tOut_t[c] = cc * tIn_t[c] + cw * tIn_t[w] + ce * tIn_t[e] + cs * tIn_t[s] + cn * tIn_t[n] +
                    cb * tIn_t[b] + ct * tIn_t[t] + dt_over_cap * pIn[c] + ct * amb_temp;
      }
    }
  }
}
