// brighten, OpenCL variant: a Vector operand arrives as its buffer followed by its size.
__kernel void brighten_opencl(__global float* image, int image_size, float gain) {
  const int i = (int)get_global_id(0);
  if (i < image_size) image[i] *= gain;
}
