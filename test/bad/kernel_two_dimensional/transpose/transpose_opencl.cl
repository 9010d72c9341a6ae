// A naive transpose launched by its host on a rows x cols NDRange; row_of is 1-D.
int row_of(void) { return get_global_id(1); }

__kernel void other(__global float* v) { v[get_global_id(1)] = 0.0f; }

__kernel void transpose(__global const float* in, __global float* out, int rows, int cols) {
  const int c = get_global_id(0);
  const int r = get_global_id(1);
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}
