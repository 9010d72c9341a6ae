// vector_scale, sequential CPU variant: arr[i] *= factor for 0 <= i < size.
// Called by the generated CPU backend wrapper with a pointer to the worker's copy of arr.

void vector_scale_cpu(float* arr, int size, float factor) {
  for (int i = 0; i < size; ++i) arr[i] *= factor;
}
