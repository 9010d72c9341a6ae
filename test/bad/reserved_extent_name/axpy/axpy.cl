// y += x, over the x_size elements the caller passes (the wrapper also passes each
// Vector's length after it, which is where the names collide).
__kernel void axpy(__global const float* x, int x_len, __global float* y, int y_len,
                   __global float* A, int A_r, int A_c, int A_l) {
  const int i = get_global_id(0);
  if (i < x_len && i < y_len) y[i] += x[i];
}
