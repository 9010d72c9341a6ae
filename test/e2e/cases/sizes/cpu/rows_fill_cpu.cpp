// rows_fill: the first n/d elements of arr become d.
void rows_fill_cpu(float* arr, int n, int d) {
  for (int i = 0; i < n / d; ++i) arr[i] = static_cast<float>(d);
}
