// loop_scale, OpenCL variant: a Vector operand arrives as its buffer and its length.
__kernel void loop_scale_kernel(__global float* v, int v_size, float factor) {
  int i = get_global_id(0);
  if (i < v_size) v[i] *= factor;
}
