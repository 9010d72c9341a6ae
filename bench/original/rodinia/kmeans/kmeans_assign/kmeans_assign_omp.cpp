// k-means' membership pass, OpenMP variant: the point loop of Rodinia's OpenMP kmeans_clustering
// (openmp/kmeans/kmeans_openmp/kmeans_clustering.c: inline in its parallel region there, so
// its membership part copied here, with its pragma), calling that file's find_nearest_point
// (read from the suite's file); the new centres are summed by the caller, as the suite's
// OpenCL program sums them on the host. Compiled without -fopenmp it is the sequential variant
// (kmeans_assign_seq.cpp includes this file).
#include <peppher/runtime.h>

// The suite's find_nearest_point leaves its index unset for no centres (never here:
// nclusters >= 1); GCC sees that once it is inlined, for the whole file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <vector>

#ifndef KMEANS_ASSIGN_VARIANT
#define KMEANS_ASSIGN_VARIANT kmeans_assign_omp
#endif
// The suite's file, its functions renamed per variant (both variants include it); its
// kmeans_clustering (the whole loop, not used here) reads num_omp_threads and wtime.
#define KM_SUITE(name) KM_SUITE2(KMEANS_ASSIGN_VARIANT, name)
#define KM_SUITE2(variant, name) KM_SUITE3(variant, name)
#define KM_SUITE3(variant, name) variant##_##name
#define find_nearest_point KM_SUITE(find_nearest_point)
#define euclid_dist_2 KM_SUITE(euclid_dist_2)
#define kmeans_clustering KM_SUITE(kmeans_clustering)
#define num_omp_threads KM_SUITE(num_omp_threads)
extern "C" {
static int num_omp_threads = 1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
#include "kmeans_clustering.c"
#pragma GCC diagnostic pop
}

void KMEANS_ASSIGN_VARIANT(const peppher::Vector<float>& feature_v,
                           const peppher::Vector<float>& feature_swap,
                           const peppher::Vector<float>& clusters_v,
                           peppher::Vector<int>& membership_v, int npoints, int nclusters,
                           int nfeatures) {
  (void)feature_swap;
  const float* feature = feature_v.data();
  std::vector<float*> clusters(static_cast<std::size_t>(nclusters));  // the suite's float**
  for (int i = 0; i < nclusters; i++)
    clusters[i] = const_cast<float*>(clusters_v.data()) + static_cast<std::size_t>(i) * nfeatures;
  int* membership = membership_v.data();
  int i, index;
#pragma omp parallel for private(i, index) firstprivate(npoints, nclusters, nfeatures) \
    schedule(static)
  for (i = 0; i < npoints; i++) {
    /* find the index of nestest cluster centers */
    index =
        find_nearest_point(const_cast<float*>(feature) + static_cast<std::size_t>(i) * nfeatures,
                           nfeatures, clusters.data(), nclusters);
    /* assign the membership to object i */
    membership[i] = index;
  }
}
