void vinc_cpu(int *v, int n) { for (int i = 0; i < n; ++i) v[i] += 1; }
