// The kernel is called assign_point here; the descriptor says assign_points.
__kernel void assign_point(__global const float* feature, int npoints, int nfeatures,
                           __global int* membership) {
  const int i = get_global_id(0);
  if (i < npoints) membership[i] = (int)feature[i * nfeatures];
}
