// Gaussian's Fan2 on the CPU: Rodinia 3.1 ships Gaussian elimination in OpenCL only (no OpenMP
// program), so this is the suite's kernel Fan2 (opencl/gaussian/gaussianElim_kernels.cl) with
// its two work-item indices as loop indices (the rows shared by an OpenMP team); compiled
// without -fopenmp it is the sequential variant (fan2_seq.cpp includes this file).
#include <peppher/runtime.h>

#ifndef FAN2_VARIANT
#define FAN2_VARIANT fan2_omp
#endif

void FAN2_VARIANT(const peppher::Vector<float>& m, peppher::Vector<float>& a,
                  peppher::Vector<float>& b, int size, int t) {
  const float* m_dev = m.data();
  float* a_dev = a.data();
  float* b_dev = b.data();
#pragma omp parallel for
  for (int globalIdx = 0; globalIdx < size - 1 - t; globalIdx++) {
    for (int globalIdy = 0; globalIdy < size - t; globalIdy++) {
      a_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] -=
          m_dev[size * (globalIdx + 1 + t) + t] * a_dev[size * t + (globalIdy + t)];
      if (globalIdy == 0) {
        b_dev[globalIdx + 1 + t] -= m_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] * b_dev[t];
      }
    }
  }
}
