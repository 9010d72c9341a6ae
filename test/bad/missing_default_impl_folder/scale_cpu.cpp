void scale_cpu(float* arr, int n) { for (int i = 0; i < n; ++i) arr[i] *= 2; }
