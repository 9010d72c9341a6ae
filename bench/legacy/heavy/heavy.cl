// heavy_scale on an OpenCL device: arr[i] *= factor.
__kernel void heavy_opencl(__global float* arr, int size, float factor) {
  int i = get_global_id(0);
  if (i < size) arr[i] *= factor;
}
