// A by-name variant that also says its backend.
// PEPPHER_BACKEND(cpu)
void rows_cpu(int nrows, const float* values, const int* offsets, int nnz, float* y) {
  for (int r = 0; r < nrows; ++r) {
    y[r] = 0;
    for (int j = offsets[r]; j < offsets[r + 1] && j < nnz; ++j) y[r] += values[j];
  }
}
