__kernel void add(__global float* v, int n, float bias) {
  const int i = get_global_id(0);
  if (i < n) v[i] += bias;
}

__kernel void doubled(__global float* v, int n) {
  const int i = get_global_id(0);
  if (i < n) v[i] *= 2.0f;
}
