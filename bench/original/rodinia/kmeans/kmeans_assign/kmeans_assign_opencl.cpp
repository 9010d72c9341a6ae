// k-means' membership pass, OpenCL variant: a host function that launches Rodinia's
// kmeans_kernel_c (opencl/kmeans/kmeans.cl, as written) on the worker's queue with the
// arguments of the suite's kmeansOCL (opencl/kmeans/kmeans.cpp): the transposed points, the
// centres, the membership, offset and size 0, one work-item per point in groups of
// BLOCK_SIZE2 (256), the global size rounded up to a whole group.
#include "rd_opencl.h"

#define BLOCK_SIZE2 256

extern struct starpu_opencl_program kmeans_program;  // kmeans.cl, built for every device
extern cl_kernel kmeans_c_k;                         // kmeans_kernel_c on this worker's device
extern cl_command_queue kmeans_queue;                // this worker's queue

void kmeans_assign_opencl(cl_mem feature, int feature_size, cl_mem d_feature_swap,
                          int feature_swap_size, cl_mem d_cluster, int clusters_size,
                          cl_mem d_membership, int membership_size, int n_points, int n_clusters,
                          int n_features) {
  (void)feature;
  (void)feature_size;
  (void)feature_swap_size;
  (void)clusters_size;
  (void)membership_size;
  const char* v = "kmeans_assign_opencl";
  size_t global_work[3] = {static_cast<size_t>(n_points), 1, 1};
  size_t local_work_size = BLOCK_SIZE2;
  if (global_work[0] % local_work_size != 0)
    global_work[0] = (global_work[0] / local_work_size + 1) * local_work_size;
  int size = 0;
  int offset = 0;
  RD_ARG(v, kmeans_c_k, 0, d_feature_swap);
  RD_ARG(v, kmeans_c_k, 1, d_cluster);
  RD_ARG(v, kmeans_c_k, 2, d_membership);
  RD_ARG(v, kmeans_c_k, 3, n_points);
  RD_ARG(v, kmeans_c_k, 4, n_clusters);
  RD_ARG(v, kmeans_c_k, 5, n_features);
  RD_ARG(v, kmeans_c_k, 6, offset);
  RD_ARG(v, kmeans_c_k, 7, size);
  rd_check(clEnqueueNDRangeKernel(kmeans_queue, kmeans_c_k, 1, nullptr, global_work,
                                  &local_work_size, 0, nullptr, nullptr),
           v, "clEnqueueNDRangeKernel");
}
