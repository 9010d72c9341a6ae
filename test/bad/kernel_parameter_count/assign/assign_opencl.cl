// One parameter short: npoints is missing.
__kernel void assign(__global const float* feature, int nfeatures,
                     __global int* membership) {
  const int i = get_global_id(0);
  membership[i] = (int)feature[i * nfeatures];
}
