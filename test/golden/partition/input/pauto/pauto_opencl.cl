// pauto, OpenCL variant: iters rounds per element.
__kernel void pauto_opencl(__global const float* x, int x_size, __global float* y, int y_size,
                           int iters) {
  for (int i = get_global_id(0); i < y_size; i += get_global_size(0)) {
    float v = x[i];
    for (int r = 0; r < iters; ++r) v = v * 0.5f + 1.0f;
    y[i] = v;
  }
}
