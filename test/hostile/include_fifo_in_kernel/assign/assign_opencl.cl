// A kernel that includes a FIFO: Clang and the OpenCL platform's compiler would wait on it.
#include "params.h"
__kernel void assign_points(__global const float* feature, int npoints, int nfeatures,
                           __global int* membership) {
  const int i = get_global_id(0);
  if (i < npoints) membership[i] = (int)feature[i * nfeatures];
}
