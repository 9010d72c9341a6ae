void rows_cpu(int nrows, int nnz, const float* values, const int* offsets, const int* cols,
              float* y) {
  (void)cols;
  for (int r = 0; r < nrows; ++r) {
    y[r] = 0;
    for (int j = offsets[r]; j < offsets[r + 1] && j < nnz; ++j) y[r] += values[j];
  }
}
