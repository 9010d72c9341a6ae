// fit_affine, OpenCL variant: each Vector block arrives as its buffer and its length.
__kernel void fit_affine_opencl(__global const float* x, int x_size, __global float* y, int y_size,
                                float a, float b) {
  for (int i = get_global_id(0); i < y_size; i += get_global_size(0)) y[i] = a * x[i] + b;
}
