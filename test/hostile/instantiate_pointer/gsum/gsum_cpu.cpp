// generic variant
template <typename T> void gsum_cpu(T* arr, int n) { for (int i = 1; i < n; ++i) arr[i] += arr[i - 1]; }
