/* y = a*x + y in C99, as a C library ships it: restrict is not a C++ keyword, so this file
   must be compiled as C, and the function has C linkage. */
void tp_axpy_c(int n, float a, const float* restrict x, float* restrict y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
