// heavy_whole, OpenCL variant: the same map, one work-item per element (grid-stride).
__kernel void heavy_whole_opencl(__global const float* x, int x_size, __global float* y, int y_size,
                                 int iters) {
  for (int i = get_global_id(0); i < y_size; i += get_global_size(0)) {
    float v = x[i];
    for (int r = 0; r < iters; ++r) v = v * 0.999f + 0.5f;
    y[i] = v;
  }
}
