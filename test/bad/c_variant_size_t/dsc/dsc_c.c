/* No #include: the interface's size_t and int64_t are still known when comparing; the
   count is an int here (an error), the 8-byte long is int64_t on this platform (fine). */
void dsc_c(int n, long first, double *x) {
  for (int i = 0; i < n; ++i) x[i] *= (double)first;
}
