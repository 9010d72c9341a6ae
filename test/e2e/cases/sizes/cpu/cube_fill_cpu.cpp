// cube_fill: the n*n*n elements of arr become n.
void cube_fill_cpu(float* arr, int n) {
  const long long count = static_cast<long long>(n) * n * n;
  for (long long i = 0; i < count; ++i) arr[i] = static_cast<float>(n);
}
