// spmv, sequential CPU variant: y = A * x for a CSR matrix A (values, row_offsets,
// col_indices; row_offsets[0] == 0). nnz and ncols size the operands and are not needed here.

void spmv_cpu(int nrows, [[maybe_unused]] int nnz, const float* values, const int* row_offsets,
              const int* col_indices, const float* x, [[maybe_unused]] int ncols, float* y) {
  for (int row = 0; row < nrows; ++row) {
    float sum = 0.0f;
    for (int k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
      sum += values[k] * x[col_indices[k]];
    y[row] = sum;
  }
}
