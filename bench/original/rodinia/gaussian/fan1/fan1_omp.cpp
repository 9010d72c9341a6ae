// Gaussian's Fan1 on the CPU: Rodinia 3.1 ships Gaussian elimination in OpenCL only (no OpenMP
// program), so this is the suite's kernel Fan1 (opencl/gaussian/gaussianElim_kernels.cl) with
// its work-item index as a loop index, the loop shared by an OpenMP team; compiled without
// -fopenmp it is the sequential variant (fan1_seq.cpp includes this file).
#include <peppher/runtime.h>

#ifndef FAN1_VARIANT
#define FAN1_VARIANT fan1_omp
#endif

void FAN1_VARIANT(peppher::Vector<float>& m, const peppher::Vector<float>& a,
                  const peppher::Vector<float>& b, int size, int t) {
  (void)b;
  float* m_dev = m.data();
  const float* a_dev = a.data();
#pragma omp parallel for
  for (int globalId = 0; globalId < size - 1 - t; globalId++)
    *(m_dev + size * (globalId + t + 1) + t) =
        *(a_dev + size * (globalId + t + 1) + t) / *(a_dev + size * t + t);
}
