// nearest, OpenCL variant written for the interface's parameter list (one work-item per
// point), as an existing kernel would be: no size arguments after the buffers.
__kernel void nearest_point(__global const float* feature, int npoints, int nfeatures,
                            __global const float* clusters, int nclusters,
                            __global int* membership) {
  const int p = get_global_id(0);
  if (p >= npoints) return;
  int best = 0;
  float best_d = 0.0f;
  for (int k = 0; k < nclusters; ++k) {
    float d = 0.0f;
    for (int j = 0; j < nfeatures; ++j) {
      const float diff = feature[p * nfeatures + j] - clusters[k * nfeatures + j];
      d += diff * diff;
    }
    if (k == 0 || d < best_d) {
      best = k;
      best_d = d;
    }
  }
  membership[p] = best;
}
