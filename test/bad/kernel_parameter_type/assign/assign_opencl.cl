// membership declared float, npoints a pointer, feature in __local memory.
__kernel void assign(__local const float* feature, __global int* npoints, int nfeatures,
                     __global float* membership) {
  const int i = get_global_id(0);
  if (i < *npoints) membership[i] = feature[i * nfeatures];
}
