// spmv_rows, sequential CPU variant: y[r] = row first_row + r of A times x, for r < nrows.
// y points at the block's rows only; the CSR arrays and x are whole.

void spmv_rows_cpu([[maybe_unused]] int total_rows, [[maybe_unused]] int nnz, const float* values,
                   const int* row_offsets, const int* col_indices, const float* x,
                   [[maybe_unused]] int ncols, float* y, int first_row, int nrows) {
  for (int r = 0; r < nrows; ++r) {
    const int row = first_row + r;
    float sum = 0.0f;
    for (int k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
      sum += values[k] * x[col_indices[k]];
    y[r] = sum;
  }
}
