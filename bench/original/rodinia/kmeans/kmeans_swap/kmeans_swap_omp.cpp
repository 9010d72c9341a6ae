// k-means' transposition on the CPU: the suite's kernel kmeans_swap (opencl/kmeans/kmeans.cl;
// the OpenMP program needs none) with its work-item index as a loop index, shared by an OpenMP
// team; compiled without -fopenmp it is the sequential variant (kmeans_swap_seq.cpp).
#include <peppher/runtime.h>

#ifndef KMEANS_SWAP_VARIANT
#define KMEANS_SWAP_VARIANT kmeans_swap_omp
#endif

void KMEANS_SWAP_VARIANT(const peppher::Vector<float>& feature_v,
                         peppher::Vector<float>& feature_swap_v, int npoints, int nfeatures) {
  const float* feature = feature_v.data();
  float* feature_swap = feature_swap_v.data();
#pragma omp parallel for
  for (int tid = 0; tid < npoints; tid++)
    for (int i = 0; i < nfeatures; i++)
      feature_swap[i * npoints + tid] = feature[tid * nfeatures + i];
}
