/* CPU variant of vector_scale: scales arr[0..size) by factor in place (compiled with g++,
   as in the published example). */
void scale_cpu_func(float* arr, int size, float factor) {
  for (int i = 0; i < size; ++i) arr[i] *= factor;
}
