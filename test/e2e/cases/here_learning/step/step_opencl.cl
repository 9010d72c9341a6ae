// step, OpenCL variant: a Vector operand arrives as its buffer and its length.
__kernel void step_kernel(__global float* v, int v_size) {
  int i = get_global_id(0);
  if (i < v_size) v[i] += 1.0f;
}
