// vector_scale, OpenCL variant: arr[i] *= factor. Arguments follow the interface (FORMAT.md
// "Variant signatures"); launched 1-D over size work-items. The grid-stride loop keeps it
// correct for any global size the launcher picks (rounded up or capped).
__kernel void vector_scale_opencl(__global float* arr, int size, float factor) {
  const int stride = (int)get_global_size(0);
  for (int i = (int)get_global_id(0); i < size; i += stride) arr[i] *= factor;
}
